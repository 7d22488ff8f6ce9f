import { createHmac } from "node:crypto";
import { type Expression, sql } from "kysely";
import { SignedTokenError, signToken, verifyToken } from "../../adapters/storage/signed-token";
import type { Database } from "../../db/database";

/** Unsubscribe links are signed with a key of their own, derived from the app secret. */
export const unsubscribeKey = (appSecret: string) =>
  createHmac("sha256", appSecret).update("flatfee unsubscribe links").digest("base64url");

/** An unsubscribe link must keep working for as long as the email sits in an inbox: it never expires. */
const NEVER = Date.UTC(2100, 0, 1) / 1000;

export const unsubscribePath = (token: string) => `/unsubscribe/${token}`;

/** One buyer's link for one seller's emails: working without signing in, useless for anyone else. */
export function unsubscribeToken(key: string, sellerId: string, email: string): string {
  return signToken({ purpose: "unsubscribe", sellerId, email: email.toLowerCase(), expiresAt: NEVER }, key);
}

/**
 * The headers that let mail apps offer the link as one-click unsubscribe (RFC 8058: a POST to the same
 * address, which the unsubscribe page answers). Every email a seller sends their buyers carries them.
 */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/**
 * A filter for a query of buyers: the email (lower-case) has not unsubscribed from the seller's emails.
 * Every audience of a seller's emails to buyers (broadcasts, posts to members) applies it.
 */
export function notUnsubscribed(sellerId: string, email: Expression<string>) {
  return sql<boolean>`not exists (
    select 1 from email_unsubscribes u where u.seller_id = ${sellerId} and u.email = ${email}
  )`;
}

/** Whose link this is, or null for anything this key did not sign for this purpose (a tampered token). */
export function readUnsubscribeToken(token: string, key: string): { sellerId: string; email: string } | null {
  try {
    const claims = verifyToken(token, key);
    if (claims.purpose !== "unsubscribe") return null;
    const { sellerId, email } = claims;
    return typeof sellerId === "string" && typeof email === "string" ? { sellerId, email } : null;
  } catch (error) {
    if (error instanceof SignedTokenError) return null;
    throw error;
  }
}

/** Stops the seller's emails to this buyer (receipts and download links still come). Idempotent. */
export async function unsubscribe(db: Database, who: { sellerId: string; email: string }): Promise<void> {
  await db
    .insertInto("email_unsubscribes")
    .values({ seller_id: who.sellerId, email: who.email })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

export async function isUnsubscribed(db: Database, who: { sellerId: string; email: string }) {
  const row = await db
    .selectFrom("email_unsubscribes")
    .select("email")
    .where("seller_id", "=", who.sellerId)
    .where("email", "=", who.email)
    .executeTakeFirst();
  return row !== undefined;
}
