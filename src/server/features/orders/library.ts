import { sql } from "kysely";
import { AUTH_MESSAGES } from "../../../contracts/auth";
import { type LibraryResponse, ORDER_MESSAGES } from "../../../contracts/orders";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { readLibraryToken } from "./buyer-links";
import { purchaseQuery, toBuyerPurchase } from "./buyer-purchase";
import { libraryMemberships } from "./library-memberships";

/** Every purchase made with this email on the platform, newest first, each with a fresh link. */
export async function libraryOf(
  db: Database,
  linkKey: string,
  email: string,
  now: Date,
): Promise<LibraryResponse> {
  const rows = await purchaseQuery(db)
    .where(sql<string>`lower(orders.customer_email)`, "=", email.toLowerCase())
    .where("orders.membership_id", "is", null)
    .orderBy("orders.created_at", "desc")
    .limit(500)
    .execute();
  return {
    email,
    purchases: rows.map((row) => toBuyerPurchase(row, linkKey, now)),
    memberships: await libraryMemberships(db, linkKey, email, now),
  };
}

/** The library behind a receipt's signed link. */
export async function libraryByLink(db: Database, linkKey: string, token: string, now: Date) {
  return libraryOf(db, linkKey, emailOfLibraryLink(linkKey, token, now), now);
}

/** The email a library link was signed for, or why the link no longer opens it. */
export function emailOfLibraryLink(linkKey: string, token: string, now: Date): string {
  const read = readLibraryToken(token, linkKey, now);
  if (!read.ok) {
    throw new AppError(
      read.problem === "expired" ? "link_expired" : "link_invalid",
      read.problem === "expired" ? 410 : 400,
      read.problem === "expired" ? ORDER_MESSAGES.libraryLinkExpired : ORDER_MESSAGES.linkInvalid,
    );
  }
  return read.value as string;
}

/**
 * The library of a signed-in buyer account. Only a verified email may see the purchases made with
 * it, or anyone could sign up with a buyer's address and read their library.
 */
export async function libraryOfAccount(
  db: Database,
  linkKey: string,
  user: { email: string; emailVerified: boolean } | undefined,
  now: Date,
) {
  if (!user) throw new AppError("unauthorized", 401, AUTH_MESSAGES.notAuthenticated);
  if (!user.emailVerified) {
    throw new AppError("email_not_verified", 403, ORDER_MESSAGES.libraryEmailNotVerified);
  }
  return libraryOf(db, linkKey, user.email, now);
}

/**
 * A receipt's library link proves its holder reads that inbox. Opened while signed in to an account
 * of the same email, it verifies that email, so the account's own library (/library) shows the
 * purchases from then on.
 */
export async function verifyEmailByLibraryLink(
  db: Database,
  user: { id: string; email: string; emailVerified: boolean } | undefined,
  libraryEmail: string,
): Promise<void> {
  if (!user || user.emailVerified || user.email.toLowerCase() !== libraryEmail.toLowerCase()) return;
  await db
    .updateTable("user")
    .set({ emailVerified: true, updatedAt: new Date() })
    .where("id", "=", user.id)
    .execute();
}
