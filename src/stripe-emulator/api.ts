import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import Stripe from "stripe";
import type { Emulator } from "./emulator.js";
import { StripeApiError } from "./errors.js";
import { expandPaths } from "./expand.js";
import { newRequestId } from "./ids.js";
import { resolveExpansion, toJson } from "./lookup.js";
import type { Scope } from "./state/types.js";
import type { EventOrigin } from "./webhooks/events.js";

/** One call to the REST API, after authentication and account scoping. */
export interface ApiCall {
  /** From the `Stripe-Account` header; `null` for the platform. */
  account: Scope;
  /** Form body (POST) or query string (GET, DELETE), without `expand`. */
  params: Record<string, unknown>;
  /** The `:id` in the route, if it has one. */
  id: string;
  origin: EventOrigin;
}

export type ApiHandler = (call: ApiCall) => object;

export interface ApiRoutes {
  get(path: string, handler: ApiHandler): void;
  post(path: string, handler: ApiHandler): void;
  delete(path: string, handler: ApiHandler): void;
}

/** Stripe keeps idempotency keys for 24 hours. */
const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const MAX_IDEMPOTENCY_RECORDS = 5000;
/** Only test-mode secret and restricted keys: the emulator never pretends to be live. */
const TEST_KEY = /^(sk|rk)_test_\S+$/;

export function apiRoutes(app: FastifyInstance, emulator: Emulator): ApiRoutes {
  const register = (method: "GET" | "POST" | "DELETE") => (path: string, handler: ApiHandler) => {
    app.route({ method, url: path, handler: (request, reply) => handle(emulator, request, reply, handler) });
  };
  return { get: register("GET"), post: register("POST"), delete: register("DELETE") };
}

/** Stripe's error body and `Request-Id` for anything under /v1 that throws. */
export function sendApiError(reply: FastifyReply, error: unknown): FastifyReply {
  const apiError =
    error instanceof StripeApiError
      ? error
      : new StripeApiError(500, "api_error", "An unexpected error occurred in the local Stripe emulator.");
  if (!reply.hasHeader("request-id")) reply.header("request-id", newRequestId());
  return reply.status(apiError.status).send(apiError.toBody());
}

async function handle(
  emulator: Emulator,
  request: FastifyRequest,
  reply: FastifyReply,
  handler: ApiHandler,
): Promise<FastifyReply> {
  const requestId = newRequestId();
  reply.header("request-id", requestId).header("stripe-version", Stripe.API_VERSION);
  try {
    authenticate(request.headers.authorization);
    const account = connectedAccount(emulator, header(request, "stripe-account"));
    const source = request.method === "POST" ? request.body : request.query;
    const { expand, ...params } = isRecord(source) ? source : {};
    const idempotencyKey = request.method === "POST" ? header(request, "idempotency-key") : undefined;
    const call: ApiCall = {
      account,
      params,
      id: isStringRecord(request.params) ? (request.params.id ?? "") : "",
      origin: { id: requestId, idempotency_key: idempotencyKey ?? null },
    };
    const run = () => {
      const result = toJson(handler(call));
      return expandPaths(result, expandList(expand), resolveExpansion(emulator, account));
    };
    if (!idempotencyKey) return reply.status(200).send(run());
    return replayOrRun(emulator, reply, `${account ?? "platform"}:${idempotencyKey}`, request, run);
  } catch (error) {
    if (!(error instanceof StripeApiError)) emulator.logger.error(`stripe-emulator: ${String(error)}`);
    return sendApiError(reply, error);
  }
}

/** Same key and same request → the first response again; same key, other request → `idempotency_error`. */
function replayOrRun(
  emulator: Emulator,
  reply: FastifyReply,
  key: string,
  request: FastifyRequest,
  run: () => unknown,
): FastifyReply {
  const records = emulator.store.state.idempotency;
  const fingerprint = createHash("sha256")
    .update(`${request.method} ${request.url.split("?")[0]} ${JSON.stringify(request.body ?? null)}`)
    .digest("hex");
  const previous = records[key];
  const now = emulator.now();
  if (previous && now - previous.createdAt < IDEMPOTENCY_TTL_SECONDS) {
    if (previous.fingerprint !== fingerprint) {
      throw new StripeApiError(
        400,
        "idempotency_error",
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key.slice(key.indexOf(":") + 1)}' if you meant to execute a different request.`,
      );
    }
    return reply
      .status(previous.status)
      .header("idempotent-replayed", "true")
      .type("application/json")
      .send(previous.body);
  }
  // Stripe saves the result of a request that ran, and none for one refused as invalid (bad or unknown
  // parameters, a missing object), so fixing the request and sending it again with the same key works.
  // No endpoint here fails once running (as a declined card would), so only successes are saved.
  const body = run();
  emulator.store.set("idempotency", key, {
    fingerprint,
    status: 200,
    body: JSON.stringify(body),
    createdAt: now,
  });
  pruneIdempotency(emulator, now);
  return reply.status(200).send(body);
}

function pruneIdempotency(emulator: Emulator, now: number): void {
  const records = emulator.store.state.idempotency;
  const keys = Object.keys(records);
  const excess = keys.length - MAX_IDEMPOTENCY_RECORDS;
  keys.forEach((key, index) => {
    const record = records[key];
    if (index < excess || (record && now - record.createdAt >= IDEMPOTENCY_TTL_SECONDS))
      emulator.store.remove("idempotency", key);
  });
}

/** The secret key from `Bearer sk_test_…`, or from Basic auth (`curl -u sk_test_…:`) which Stripe also takes. */
function apiKey(authorization: string): string {
  const [scheme, credentials = ""] = authorization.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === "basic")
    return Buffer.from(credentials, "base64").toString("utf8").split(":")[0] ?? "";
  return scheme?.toLowerCase() === "bearer" ? credentials : authorization;
}

function authenticate(authorization: string | undefined): void {
  if (!authorization) {
    throw new StripeApiError(
      401,
      "invalid_request_error",
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    );
  }
  const key = apiKey(authorization);
  if (!TEST_KEY.test(key)) {
    throw new StripeApiError(
      401,
      "invalid_request_error",
      `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}`,
      "api_key_invalid",
    );
  }
}

/** The caller of a route outside the JSON API (a file's contents): its key checked, its `Stripe-Account`. */
export function authenticatedAccount(emulator: Emulator, request: FastifyRequest): Scope {
  authenticate(request.headers.authorization);
  return connectedAccount(emulator, header(request, "stripe-account"));
}

function connectedAccount(emulator: Emulator, header: string | undefined): Scope {
  if (!header) return null;
  if (!emulator.store.state.accounts[header]) {
    throw new StripeApiError(
      403,
      "invalid_request_error",
      `The provided key does not have access to account '${header}' (or that account does not exist). Application access may have been revoked.`,
      "account_invalid",
    );
  }
  return header;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function expandList(value: unknown): string[] {
  if (value === undefined) return [];
  const items = Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [value];
  return items.filter((item): item is string => typeof item === "string");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((item) => typeof item === "string");
}
