/**
 * A seller's session cookie for the benches, signed in again whenever it is older than half the session
 * cache's life (SESSION_CACHE_SECONDS): the cookie carries a signed copy of the session that expires
 * after 60 s, and a bench holding one cookie for minutes would measure a database session read on every
 * request (load generators drop the renewed cookie the server answers with), not what a browser costs.
 */
import { SESSION_CACHE_SECONDS } from "../src/server/features/auth/auth";
import { cookiesOf, type TestApp } from "../tests/api/support/test-app";

const FRESH_FOR_MS = (SESSION_CACHE_SECONDS * 1000) / 2;

/** Answers a function giving a cookie signed in less than 30 s ago (a load run must be shorter than that). */
export function freshSession(t: TestApp, user: { email: string; password: string }): () => Promise<string> {
  let cookie = "";
  let signedInAt = 0;
  return async () => {
    if (Date.now() - signedInAt < FRESH_FOR_MS) return cookie;
    const response = await t.request({
      method: "POST",
      url: "/api/auth/sign-in/email",
      body: { email: user.email, password: user.password },
    });
    if (response.statusCode !== 200)
      throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
    cookie = cookiesOf(response);
    signedInAt = Date.now();
    return cookie;
  };
}
