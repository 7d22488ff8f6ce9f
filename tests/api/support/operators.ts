import { expect } from "vitest";
import { grantOperator } from "../../../src/server/features/operator/operator-grants";
import { totp } from "../../support/totp";
import { cookiesOf, signUp, type TestApp } from "./test-app";

/** Turns on TOTP through Better Auth's own routes, as the settings page does: the session it leaves. */
export async function turnOnTwoFactor(t: TestApp, cookie: string, password: string): Promise<string> {
  const enable = await t.request({
    method: "POST",
    url: "/api/auth/two-factor/enable",
    body: { password },
    cookie,
  });
  expect(enable.statusCode, enable.body).toBe(200);
  const secret = new URL((enable.json() as { totpURI: string }).totpURI).searchParams.get("secret") ?? "";
  const verify = await t.request({
    method: "POST",
    url: "/api/auth/two-factor/verify-totp",
    body: { code: totp(secret) },
    cookie,
  });
  expect(verify.statusCode, verify.body).toBe(200);
  // Turning it on starts a new session.
  return cookiesOf(verify) || cookie;
}

/** A new account made an operator (as `npm run operator:grant` does) with two-factor on: its session cookie. */
export async function operatorSession(
  t: TestApp,
): Promise<{ email: string; userId: string; cookie: string }> {
  const operator = await signUp(t);
  await grantOperator(t.db, operator.email, "test", t.clock.now());
  const cookie = await turnOnTwoFactor(t, operator.cookie, operator.password);
  return { email: operator.email, userId: operator.userId, cookie };
}
