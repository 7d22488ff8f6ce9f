import { sql } from "kysely";
import { DEFAULT_LOCALE, type Locale } from "../../../contracts/i18n/locales";
import type { Outbox } from "../../adapters/mail/outbox";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import type { Database } from "../../db/database";
import { libraryPath, libraryToken } from "../orders";
import { unsubscribePath, unsubscribeToken } from "./unsubscribe";

/**
 * Emails queued per transaction by a batched send to buyers (a broadcast, a post to members): a send to
 * 20,000 buyers is 200 short transactions, not one long one. Each batch is one run of the send's job.
 */
export const EMAIL_BATCH_SIZE = 100;

export interface BuyerEmailDeps {
  outbox: Outbox;
  appUrl: string;
  /** Signs the buyers' unsubscribe links (unsubscribe.ts). */
  unsubscribeKey: string;
  /** Signs their library links. */
  linkKey: string;
}

/** What one buyer's copy of an email is made with: their own links, and their language. */
export interface BuyerLinks {
  to: string;
  /** The language of their latest purchase from the seller (buyerLocales): the email's framing speaks it. */
  locale: Locale;
  /** Their link to stop this seller's emails (footer, and the List-Unsubscribe headers). */
  unsubscribeUrl: string;
  /** Their library, without signing in. */
  libraryUrl: string;
}

/**
 * The language each of these buyers last bought from the seller in (their latest order's
 * `buyer_locale`; a membership's periods carry the member's): one statement per batch, on the orders'
 * email index. A buyer with no order (none should be) reads English.
 */
export async function buyerLocales(
  db: Database,
  sellerId: string,
  emails: readonly string[],
): Promise<Map<string, Locale>> {
  if (emails.length === 0) return new Map();
  const email = sql<string>`lower(customer_email)`;
  const rows = await db
    .selectFrom("orders")
    .distinctOn(email)
    .select([email.as("email"), "buyer_locale"])
    .where(
      email,
      "in",
      emails.map((address) => address.toLowerCase()),
    )
    .where("seller_id", "=", sellerId)
    .orderBy(email)
    .orderBy("created_at", "desc")
    .execute();
  return new Map(rows.map((row) => [row.email, row.buyer_locale]));
}

/**
 * One batch of a seller's email to their buyers, in the caller's transaction (which also moves the
 * send's progress, so a crash rolls both back and the next run queues the batch again): an outbox email
 * per recipient, each made with that buyer's own unsubscribe and library links, in their language.
 */
export async function enqueueBuyerEmails(
  trx: Database,
  deps: BuyerEmailDeps,
  sellerId: string,
  recipients: readonly string[],
  now: Date,
  emailFor: (links: BuyerLinks) => OutgoingEmail,
): Promise<void> {
  const locales = await buyerLocales(trx, sellerId, recipients);
  for (const email of recipients) {
    const locale = locales.get(email.toLowerCase()) ?? DEFAULT_LOCALE;
    const unsubscribeUrl = `${deps.appUrl}${unsubscribePath(unsubscribeToken(deps.unsubscribeKey, sellerId, email))}`;
    const libraryUrl = `${deps.appUrl}${libraryPath(libraryToken(deps.linkKey, email, now))}`;
    await deps.outbox.enqueue(emailFor({ to: email, locale, unsubscribeUrl, libraryUrl }), trx);
  }
}
