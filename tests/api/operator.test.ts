import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_MESSAGES } from "../../src/contracts/operator";
import { grantOperator, revokeOperator } from "../../src/server/features/operator/operator-grants";
import { turnOnTwoFactor } from "./support/operators";
import { createTestApp, signUp, type TestApp } from "./support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (cookie?: string) =>
  t.request({ method: "GET", url: "/api/operator/me", ...(cookie ? { cookie } : {}) });

describe("who reaches the operator console", () => {
  it("nobody signed out, no seller (the same 404 as no such path), an operator only with two-factor on", async () => {
    expect((await me()).statusCode).toBe(401);
    const seller = await signUp(t);
    const asSeller = await me(seller.cookie);
    expect(asSeller.statusCode).toBe(404);
    expect(
      (await t.request({ method: "GET", url: "/api/operator/audit-log", cookie: seller.cookie })).statusCode,
    ).toBe(404);

    const operator = await signUp(t);
    expect((await grantOperator(t.db, operator.email, "test", t.clock.now())).outcome).toBe("granted");
    const withoutTwoFactor = await me(operator.cookie);
    expect(withoutTwoFactor.statusCode).toBe(403);
    expect(withoutTwoFactor.json()).toMatchObject({
      code: "two_factor_required",
      message: OPERATOR_MESSAGES.twoFactorRequired,
    });

    const cookie = await turnOnTwoFactor(t, operator.cookie, operator.password);
    const allowed = await me(cookie);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toEqual({ id: operator.userId, email: operator.email });

    // Revoked: back to a 404, at once.
    expect((await revokeOperator(t.db, operator.email, "test", t.clock.now())).outcome).toBe("revoked");
    expect((await me(cookie)).statusCode).toBe(404);
  });
});

describe("the audit log", () => {
  it("records grants and revokes with their actor and reason, newest first, and can never be changed", async () => {
    const operator = await signUp(t);
    await grantOperator(t.db, operator.email, "command line (ada)", t.clock.now());
    const cookie = await turnOnTwoFactor(t, operator.cookie, operator.password);
    const someone = await signUp(t);
    await grantOperator(t.db, someone.email, "command line (ada)", t.clock.now());
    await revokeOperator(t.db, someone.email, "command line (bob)", t.clock.now());

    const page = await t.request({ method: "GET", url: "/api/operator/audit-log", cookie });
    expect(page.statusCode).toBe(200);
    const { entries } = page.json() as { entries: { action: string; actorEmail: string; reason: string }[] };
    expect(entries.slice(0, 3)).toEqual([
      expect.objectContaining({
        action: "operator.revoke",
        actorEmail: "command line (bob)",
        reason: `Revoked from the command line for ${someone.email}`,
      }),
      expect.objectContaining({
        action: "operator.grant",
        reason: `Granted from the command line to ${someone.email}`,
      }),
      expect.objectContaining({
        action: "operator.grant",
        reason: `Granted from the command line to ${operator.email}`,
      }),
    ]);

    await expect(sql`update audit_log set reason = 'nothing happened'`.execute(t.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from audit_log`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(
      t.db.insertInto("audit_log").values({ actor_email: "x", action: "y", reason: "  " }).execute(),
    ).rejects.toThrow();
  });

  it("granting twice changes nothing twice; an unknown email changes nothing", async () => {
    const someone = await signUp(t);
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom("audit_log")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect((await grantOperator(t.db, someone.email.toUpperCase(), "test", t.clock.now())).outcome).toBe(
      "granted",
    );
    expect((await grantOperator(t.db, someone.email, "test", t.clock.now())).outcome).toBe("already");
    expect((await grantOperator(t.db, "nobody@example.com", "test", t.clock.now())).outcome).toBe(
      "no-account",
    );
    expect((await revokeOperator(t.db, "nobody@example.com", "test", t.clock.now())).outcome).toBe(
      "no-account",
    );
    expect(await count()).toBe(before + 1);
  });
});
