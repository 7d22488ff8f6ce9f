import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { recordAudit } from "./audit-log";

export type GrantResult =
  | { outcome: "granted" | "already" | "revoked" | "was-not"; email: string; twoFactor: boolean }
  | { outcome: "no-account"; email: string };

async function accountByEmail(db: Kysely<DB>, email: string) {
  return db
    .selectFrom("user")
    .select(["id", "email", "twoFactorEnabled"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase()))
    .executeTakeFirst();
}

/**
 * Grants or revokes, in one transaction with its audit entry (the command line as the actor); an
 * account that is already so changes nothing and records nothing.
 */
async function changeOperator(
  db: Kysely<DB>,
  email: string,
  actor: string,
  now: Date,
  change: "grant" | "revoke",
): Promise<GrantResult> {
  const account = await accountByEmail(db, email);
  if (!account) return { outcome: "no-account", email };
  const twoFactor = account.twoFactorEnabled === true;
  return db.transaction().execute(async (trx) => {
    const changed =
      change === "grant"
        ? await trx
            .insertInto("operators")
            .values({ user_id: account.id, granted_at: now, granted_by: actor })
            .onConflict((oc) => oc.column("user_id").doNothing())
            .returning("user_id")
            .executeTakeFirst()
        : await trx
            .deleteFrom("operators")
            .where("user_id", "=", account.id)
            .returning("user_id")
            .executeTakeFirst();
    if (!changed)
      return { outcome: change === "grant" ? "already" : "was-not", email: account.email, twoFactor };
    const reason =
      change === "grant"
        ? `Granted from the command line to ${account.email}`
        : `Revoked from the command line for ${account.email}`;
    await recordAudit(trx, { id: null, email: actor }, { action: `operator.${change}`, reason }, now);
    return { outcome: change === "grant" ? "granted" : "revoked", email: account.email, twoFactor };
  });
}

/** Makes an existing account an operator (the command line's `operator:grant`; the web never can). */
export const grantOperator = (db: Kysely<DB>, email: string, grantedBy: string, now: Date) =>
  changeOperator(db, email, grantedBy, now, "grant");

/** Takes the operator role away (`operator:revoke`); the account stays a seller account. */
export const revokeOperator = (db: Kysely<DB>, email: string, revokedBy: string, now: Date) =>
  changeOperator(db, email, revokedBy, now, "revoke");
