import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { twoFactor } from "better-auth/plugins/two-factor";
import { AUTH_MESSAGES, PASSWORD_MIN_LENGTH } from "../../../contracts/auth";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import { passwordResetEmail } from "./emails";
import { isCommonPassword } from "./password-strength";
import { SessionCache } from "./session-cache";

export const SESSION_LIFETIME_SECONDS = 60 * 60 * 24 * 30;
/** A session used after this long gets its expiry pushed forward (sliding sessions). */
export const SESSION_REFRESH_AFTER_SECONDS = 60 * 60 * 24;
export const RESET_TOKEN_LIFETIME_SECONDS = 60 * 60;
/**
 * How long a signed copy of the session in a cookie is trusted without reading the database. It is
 * also how long a session revoked through another app instance (signed out, password reset) keeps
 * working on another device before that device's next request answers 401; revoked through this
 * instance, it is refused at once (SessionCache). Better Auth's own sensitive routes (password,
 * two-factor) always read the database.
 */
export const SESSION_CACHE_SECONDS = 60;
/** Sessions the per-process cache in front of Better Auth keeps (least recently used go first). */
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

const PASSWORD_SETTING_PATHS = new Set(["/sign-up/email", "/reset-password", "/change-password"]);

export interface AuthDeps {
  db: Database;
  outbox: Outbox;
  appUrl: string;
  secret: string;
}

/** Better Auth on our own Kysely/Postgres: email + password, sliding sessions, reset by email, TOTP. */
export function createAuth({ db, outbox, appUrl, secret }: AuthDeps) {
  const useSecureCookies = appUrl.startsWith("https://");
  const sessionCache = new SessionCache({
    secret,
    secureCookies: useSecureCookies,
    ttlSeconds: SESSION_CACHE_SECONDS,
    maxEntries: SESSION_CACHE_MAX_ENTRIES,
  });
  const auth = betterAuth({
    appName: "Flatfee",
    baseURL: appUrl,
    basePath: "/api/auth",
    secret,
    database: { db, type: "postgres" },
    trustedOrigins: [appUrl],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: 128,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: RESET_TOKEN_LIFETIME_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        const resetUrl = `${appUrl}/auth?reset=true&token=${encodeURIComponent(token)}`;
        await outbox.enqueue(passwordResetEmail(user.email, resetUrl));
      },
    },
    session: {
      expiresIn: SESSION_LIFETIME_SECONDS,
      updateAge: SESSION_REFRESH_AFTER_SECONDS,
      cookieCache: { enabled: true, maxAge: SESSION_CACHE_SECONDS },
    },
    // Our own Postgres-backed limiter (per IP and per email) guards these routes; see routes.ts.
    rateLimit: { enabled: false },
    // Failures that are not Better Auth's own answers (a database outage, a bug) reach our error
    // handler, which answers 503 or 500 with a request id, instead of becoming a bare 500 here.
    onAPIError: { throw: true },
    advanced: {
      useSecureCookies,
      // Better Auth skips its origin check when NODE_ENV=test; keep it on so the tests see production's behaviour.
      disableOriginCheck: false,
      disableCSRFCheck: false,
    },
    plugins: [twoFactor({ issuer: "Flatfee" })],
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (!PASSWORD_SETTING_PATHS.has(ctx.path)) return;
        const body = ctx.body as { password?: unknown; newPassword?: unknown } | undefined;
        const password = body?.password ?? body?.newPassword;
        if (typeof password === "string" && (await isCommonPassword(password))) {
          throw new APIError("BAD_REQUEST", {
            message: AUTH_MESSAGES.serverCommonPassword,
            code: "WEAK_PASSWORD",
          });
        }
      }),
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await db
              .insertInto("profiles")
              .values({ id: user.id })
              .onConflict((c) => c.doNothing())
              .execute();
          },
        },
      },
      // Every way a session ends (sign-out, revoking, password change or reset, deleting the user)
      // deletes its row through here; the cache must not keep answering for it.
      session: {
        delete: {
          after: async (session) => {
            sessionCache.revoke(session.token);
          },
        },
      },
    },
  });
  return Object.assign(auth, { sessionCache });
}

export type Auth = ReturnType<typeof createAuth>;
