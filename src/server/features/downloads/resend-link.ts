import { sql } from "kysely";
import { RATE_LIMIT_MESSAGES } from "../../../contracts/i18n/buyer-messages";
import type { Locale } from "../../../contracts/i18n/locales";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import { enforceRateLimit } from "../../http/rate-limit";
import { freshLinkEmail, purchaseQuery, toBuyerPurchase } from "../orders";

export const RESEND_LIMITS = {
  perIp: { name: "resend:ip", limit: 10, windowSeconds: 60 * 60 },
  perEmail: { name: "resend:email", limit: 3, windowSeconds: 60 * 60 },
};
const TOO_MANY = RATE_LIMIT_MESSAGES.resends;

/**
 * 'Resend my download link' from a product page: a fresh link goes to the purchase email only,
 * and the answer is the same whether or not that email bought anything (no enumeration). The email
 * speaks the language the request asked for (`locale`, http/buyer-locale.ts' requestedLocale), else
 * the order's.
 */
export async function resendDownloadLink(
  deps: { db: Database; outbox: Outbox; appUrl: string; linkKey: string },
  request: { productId: string; email: string; ip: string; locale?: Locale | undefined },
  now: Date,
): Promise<void> {
  await enforceRateLimit(deps.db, RESEND_LIMITS.perIp, request.ip, TOO_MANY, now);
  await enforceRateLimit(deps.db, RESEND_LIMITS.perEmail, request.email.toLowerCase(), TOO_MANY, now);
  const row = await purchaseQuery(deps.db)
    .where("orders.product_id", "=", request.productId)
    .where(sql<string>`lower(orders.customer_email)`, "=", request.email.toLowerCase())
    .where("orders.status", "=", "completed")
    .where("orders.download_window_ends_at", ">", now)
    .orderBy("orders.created_at", "desc")
    .executeTakeFirst();
  if (!row) return;
  const purchase = toBuyerPurchase(row, deps.linkKey, now);
  if (purchase.downloadPath) {
    await deps.outbox.enqueue(freshLinkEmail(purchase, deps.appUrl, request.locale ?? row.buyer_locale));
  }
}
