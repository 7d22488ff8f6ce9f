import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Auth } from "../features/auth/auth";
import { unauthorized } from "./errors";

export interface SignedInUser {
  id: string;
  email: string;
}

/** Node request headers as a WHATWG Headers object (what Better Auth takes). */
export function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

/** Cookies Better Auth set while reading a request's session, sent with that request's answer. */
const sessionCookies = new WeakMap<FastifyRequest, string[]>();

/** The cookies this request's answer must carry (see registerSessionCookies), if any. */
export function pendingSessionCookies(request: FastifyRequest): string[] | undefined {
  return sessionCookies.get(request);
}

/**
 * The signed-in user of this request, or undefined. Answered from the per-process session cache when
 * these cookies were seen recently (see SessionCache), else by Better Auth.
 */
export async function currentUser(auth: Auth, request: FastifyRequest): Promise<SignedInUser | undefined> {
  return auth.sessionCache.userOf(request.headers.cookie, async () => {
    const { headers, response: session } = await auth.api.getSession({
      headers: webHeaders(request),
      returnHeaders: true,
    });
    const setCookies = headers.getSetCookie();
    if (setCookies.length > 0) sessionCookies.set(request, setCookies);
    if (!session) return undefined;
    return {
      user: { id: session.user.id, email: session.user.email },
      sessionToken: session.session.token,
      sessionExpiresAt: session.session.expiresAt,
    };
  });
}

/** The signed-in user, or a 401 'User not authenticated'. */
export async function requireUser(auth: Auth, request: FastifyRequest): Promise<SignedInUser> {
  const user = await currentUser(auth, request);
  if (!user) throw unauthorized();
  return user;
}

/**
 * Sends the cookies a session read produced: a renewed session cache after a database read (so the
 * next requests skip the database again) and a slid expiry, as Better Auth's own routes would.
 */
export function registerSessionCookies(server: FastifyInstance): void {
  server.addHook("onSend", (request, reply, payload, done) => {
    const cookies = pendingSessionCookies(request);
    if (cookies) reply.header("set-cookie", cookies);
    done(null, payload);
  });
}
