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

/** What one buyer's copy of an email is made with: their own links. */
export interface BuyerLinks {
  to: string;
  /** Their link to stop this seller's emails (footer, and the List-Unsubscribe headers). */
  unsubscribeUrl: string;
  /** Their library, without signing in. */
  libraryUrl: string;
}

/**
 * One batch of a seller's email to their buyers, in the caller's transaction (which also moves the
 * send's progress, so a crash rolls both back and the next run queues the batch again): an outbox email
 * per recipient, each made with that buyer's own unsubscribe and library links.
 */
export async function enqueueBuyerEmails(
  trx: Database,
  deps: BuyerEmailDeps,
  sellerId: string,
  recipients: readonly string[],
  now: Date,
  emailFor: (links: BuyerLinks) => OutgoingEmail,
): Promise<void> {
  for (const email of recipients) {
    const unsubscribeUrl = `${deps.appUrl}${unsubscribePath(unsubscribeToken(deps.unsubscribeKey, sellerId, email))}`;
    const libraryUrl = `${deps.appUrl}${libraryPath(libraryToken(deps.linkKey, email, now))}`;
    await deps.outbox.enqueue(emailFor({ to: email, unsubscribeUrl, libraryUrl }), trx);
  }
}
