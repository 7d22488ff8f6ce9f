import { RECOVERY_RULES } from "../../../contracts/checkout-recovery";
import type { Database } from "../../db/database";
import { enqueueJob, jobKind } from "../../jobs/job-queue";
import type { ExpiredCheckout, OrderChangeStep } from "../order-lifecycle";

export const sendRecoveryJob = jobKind<{ checkoutId: string }>("checkout-recovery.send");

/**
 * A checkout just ended unpaid (OrderChanges, in the transaction that ended it): when Stripe says the
 * buyer agreed on Checkout to hear from the store (`consent.promotions: "opt_in"`, which is when it
 * shows their email), its recovery email is scheduled for an hour after the session expired, with its
 * job. Everything else (the seller's switch, a purchase since, an unsubscribe, the weekly limit, the
 * product still for sale) is decided when it is due, as it may change within the hour. One row and one
 * job per checkout: the same expiry told twice schedules one email.
 */
export async function scheduleRecovery(trx: Database, expired: ExpiredCheckout): Promise<void> {
  const { session } = expired;
  const email = session.customer_details?.email?.trim().toLowerCase();
  if (session.mode !== "payment" || session.consent?.promotions !== "opt_in" || !email) return;
  const checkout = await trx
    .selectFrom("checkouts")
    .select(["product_id", "buyer_locale", "currency"])
    .where("id", "=", expired.checkoutId)
    .executeTakeFirst();
  if (!checkout?.product_id) return;
  const store = await trx
    .selectFrom("profiles")
    .select("checkout_recovery_emails")
    .where("id", "=", expired.sellerId)
    .executeTakeFirst();
  if (!store?.checkout_recovery_emails) return;
  // Stripe's expiry, or now for one expired early (the janitor, Buy Now replacing it); never later than now.
  const expiredAt = new Date(Math.min(session.expires_at * 1000, expired.at.getTime()));
  const sendAt = new Date(expiredAt.getTime() + RECOVERY_RULES.delayMs);
  const added = await trx
    .insertInto("checkout_recoveries")
    .values({
      checkout_id: expired.checkoutId,
      seller_id: expired.sellerId,
      product_id: checkout.product_id,
      email,
      buyer_locale: checkout.buyer_locale,
      currency: session.currency ?? checkout.currency,
      // The line's amount before tax: the price, the buyer's own amount, after the code.
      amount_cents: (session.amount_subtotal ?? 0) - (session.total_details?.amount_discount ?? 0),
      expired_at: expiredAt,
      send_at: sendAt,
    })
    .onConflict((conflict) => conflict.column("checkout_id").doNothing())
    .returning("checkout_id")
    .executeTakeFirst();
  if (!added) return;
  await enqueueJob(
    trx,
    sendRecoveryJob,
    { checkoutId: expired.checkoutId },
    { uniqueKey: `checkout-recovery:${expired.checkoutId}`, runAt: sendAt },
  );
}

/** Checkout recovery's part of OrderChanges: an abandoned checkout's email is scheduled. */
export const recoveryStep: OrderChangeStep = { checkoutExpired: scheduleRecovery };
