import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sql } from "kysely";
import { AUTH_MESSAGES, credentialsSchema, forgotPasswordSchema } from "../../../contracts/auth";
import type { ApiErrorBody } from "../../../contracts/errors";
import type { Database } from "../../db/database";
import { badRequest } from "../../http/errors";
import { enforceRateLimit, type RateRule } from "../../http/rate-limit";
import { webHeaders } from "../../http/session";
import type { Auth } from "./auth";

export const SIGN_IN_LIMITS = {
  perIp: { name: "sign-in:ip", limit: 20, windowSeconds: 60 },
  perEmail: { name: "sign-in:email", limit: 5, windowSeconds: 60 },
} satisfies Record<string, RateRule>;

export const SIGN_UP_LIMITS = {
  perIp: { name: "sign-up:ip", limit: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, RateRule>;

/** Guessing a 6-digit code: Better Auth allows 5 tries per sign-in attempt; this caps attempts per IP. */
export const TWO_FACTOR_LIMITS = {
  perIp: { name: "two-factor:ip", limit: 10, windowSeconds: 60 },
} satisfies Record<string, RateRule>;

export const RESET_REQUEST_LIMITS = {
  perIp: { name: "reset:ip", limit: 10, windowSeconds: 15 * 60 },
  perEmail: { name: "reset:email", limit: 3, windowSeconds: 15 * 60 },
} satisfies Record<string, RateRule>;

/** Mounts Better Auth at /api/auth/*, with our validation messages and rate limits in front of it. */
export function registerAuthRoutes(app: FastifyInstance, deps: { auth: Auth; db: Database }): void {
  const { auth, db } = deps;

  const guards: Record<string, (request: FastifyRequest) => Promise<void>> = {
    "/api/auth/sign-up/email": async (request) => {
      validate(credentialsSchema, request.body);
      await enforceRateLimit(db, SIGN_UP_LIMITS.perIp, request.ip, AUTH_MESSAGES.tooManyAttempts);
    },
    "/api/auth/sign-in/email": async (request) => {
      const { email } = validate(credentialsSchema, request.body);
      await enforceRateLimit(db, SIGN_IN_LIMITS.perIp, request.ip, AUTH_MESSAGES.tooManyAttempts);
      await enforceRateLimit(db, SIGN_IN_LIMITS.perEmail, email.toLowerCase(), AUTH_MESSAGES.tooManyAttempts);
    },
    "/api/auth/request-password-reset": async (request) => {
      const { email } = validate(forgotPasswordSchema, request.body);
      await enforceRateLimit(db, RESET_REQUEST_LIMITS.perIp, request.ip, AUTH_MESSAGES.tooManyAttempts);
      await enforceRateLimit(
        db,
        RESET_REQUEST_LIMITS.perEmail,
        email.toLowerCase(),
        AUTH_MESSAGES.tooManyAttempts,
      );
    },
  };

  const twoFactorGuard = async (request: FastifyRequest) => {
    await enforceRateLimit(db, TWO_FACTOR_LIMITS.perIp, request.ip, AUTH_MESSAGES.tooManyAttempts);
  };
  for (const path of ["verify-totp", "verify-backup-code", "verify-otp"]) {
    guards[`/api/auth/two-factor/${path}`] = twoFactorGuard;
  }

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    handler: async (request, reply) => {
      const path = request.url.split("?")[0] ?? "";
      if (request.method === "POST") await guards[path]?.(request);

      const url = new URL(request.url, auth.options.baseURL);
      const headers = webHeaders(request);
      headers.set("x-forwarded-for", request.ip);
      const response = await auth.handler(
        new Request(url, {
          method: request.method,
          headers,
          ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
        }),
      );
      if (response.status >= 500) return internalError(db, request, reply, response);
      reply.status(response.status);
      response.headers.forEach((value, name) => {
        if (name !== "set-cookie") reply.header(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header("set-cookie", cookies);
      return reply.send(response.body ? await response.text() : null);
    },
  });
}

/**
 * Better Auth answers some failures with a bare 5xx and keeps the cause to itself (a session lookup
 * during a database outage, for one). If the database is unreachable, that is the answer (503);
 * otherwise the app's error body, with a request id to quote.
 */
async function internalError(db: Database, request: FastifyRequest, reply: FastifyReply, response: Response) {
  await sql`select 1`.execute(db); // throws DatabaseUnavailableError, answered 503 by the error handler
  request.log.error({ status: response.status, body: await response.text() }, "auth request failed");
  return reply.status(response.status).send({
    code: "internal",
    message: "Internal error",
    requestId: String(request.id),
  } satisfies ApiErrorBody);
}

function validate<T>(
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
  },
  body: unknown,
): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw badRequest(parsed.error.issues[0]?.message ?? "Invalid request", "validation_error");
  return parsed.data;
}
