import type { FastifyRequest } from "fastify";
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

/** The signed-in user of this request, or undefined. */
export async function currentUser(auth: Auth, request: FastifyRequest): Promise<SignedInUser | undefined> {
  const session = await auth.api.getSession({ headers: webHeaders(request) });
  return session ? { id: session.user.id, email: session.user.email } : undefined;
}

/** The signed-in user, or a 401 'User not authenticated'. */
export async function requireUser(auth: Auth, request: FastifyRequest): Promise<SignedInUser> {
  const user = await currentUser(auth, request);
  if (!user) throw unauthorized();
  return user;
}
