import { randomBytes } from "node:crypto";
import type Stripe from "stripe";
import { MEMBERSHIP_LIMITS } from "../../../contracts/memberships";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import type { MembershipWebhookEventType } from "../../../contracts/webhooks";
import type { Announce } from "../../adapters/events/commit-change";
import type { Database } from "../../db/database";
import { invoicePdfPath, invoiceToken } from "../invoice-links";
import {
  type AcceptedWaiver,
  type FulfilmentDeps,
  libraryPath,
  libraryToken,
  orderTaxOfInvoice,
  orderTaxView,
} from "../orders";
import { type MembershipEventData, queueMembershipWebhooks } from "../seller-webhooks";
import {
  cancelScheduledEmail,
  endedEmail,
  type MembershipEmailContext,
  paymentFailedEmail,
  paymentReceiptEmail,
  welcomeEmail,
} from "./emails";
import { type PaidInvoice, paymentIntentOf } from "./paid-invoice";
import { type MembershipRow, type SubscriptionRead, syncMembership } from "./sync-membership";

const DAY_MS = 24 * 60 * 60 * 1000;
const newOrderId = () => `ord_${randomBytes(10).toString("base64url")}`;
const toDate = (seconds: number) => new Date(seconds * 1000);

export type MembershipDeps = FulfilmentDeps;

export async function emailContext(
  deps: Pick<MembershipDeps, "appUrl" | "linkKey">,
  trx: Database,
  membership: MembershipRow,
  now: Date,
): Promise<MembershipEmailContext> {
  const profile = await trx
    .selectFrom("profiles")
    .select("store_name")
    .where("id", "=", membership.seller_id)
    .executeTakeFirst();
  return {
    membership,
    sellerName: profile?.store_name ?? STORE_FALLBACK_NAME,
    libraryUrl: `${deps.appUrl}${libraryPath(libraryToken(deps.linkKey, membership.customer_email, now))}`,
  };
}

/**
 * A subscription read back from Stripe, applied: the membership stored as Stripe has it, and what its
 * change means told once (welcome, cancellation scheduled, ended), in the same transaction. A read that
 * changes nothing (a redelivery, an older read) tells nothing.
 */
export async function applySubscription(
  deps: MembershipDeps,
  trx: Database,
  read: SubscriptionRead,
  now: Date,
  announce: Announce,
): Promise<MembershipRow | undefined> {
  const synced = await syncMembership(trx, read);
  if (!synced) return undefined;
  const { membership, before } = synced;
  const ended = membership.status === "canceled" || membership.status === "incomplete_expired";
  const context = () => emailContext(deps, trx, membership, now);
  const tellSeller = (type: MembershipWebhookEventType) =>
    queueMembershipWebhooks(trx, membership.seller_id, type, membershipEventData(membership), now);
  if (!before && !ended) {
    // With Adaptive Pricing the member pays in their own currency (Stripe's presentment_details).
    const paysIn = read.subscription.presentment_details?.presentment_currency;
    await deps.outbox.enqueue(welcomeEmail(await context(), membership.trial_end, paysIn), trx);
    await tellSeller("membership.started");
  } else if (before && ended && before.status !== membership.status) {
    await deps.outbox.enqueue(endedEmail(await context()), trx);
    await tellSeller("membership.ended");
  } else if (before && !ended && membership.cancel_at_period_end && !before.cancel_at_period_end) {
    await deps.outbox.enqueue(cancelScheduledEmail(await context()), trx);
    await tellSeller("membership.canceled");
  }
  announce(membership.seller_id, { type: "sales.changed" });
  return membership;
}

/**
 * The waiver every period's order carries: the membership's, else the one its Checkout session says was
 * just accepted (paid-invoice.ts), kept on the membership from now on.
 */
async function membershipWaiver(
  trx: Database,
  membership: MembershipRow,
  accepted: string | undefined,
  now: Date,
): Promise<AcceptedWaiver | undefined> {
  if (membership.withdrawal_waiver) {
    return { text: membership.withdrawal_waiver, at: membership.withdrawal_waiver_at ?? now };
  }
  if (!accepted) return undefined;
  await trx
    .updateTable("memberships")
    .set({ withdrawal_waiver: accepted, withdrawal_waiver_at: now })
    .where("id", "=", membership.id)
    .where("withdrawal_waiver", "is", null)
    .execute();
  return { text: accepted, at: now };
}

/**
 * A paid invoice of a membership becomes an order: a sale of the product for the period it paid, keyed
 * by the invoice id (so it is made once), with the period's downloads, its totals and its receipt. A
 * trial's $0 invoice is an order at $0 too (like a free claim): it carries the trial's downloads, and
 * the sales table shows when the trial began; it sends no receipt. A checkout row stands for the
 * payment, as for every order. The order records Stripe Tax's answer on the invoice (orderTaxOfInvoice,
 * the one mapping a one-time sale's session uses too), the business buyer of the membership's first
 * checkout and the waiver accepted there, so its invoice (features/invoices) shows them.
 */
export async function recordMembershipPayment(
  deps: MembershipDeps,
  trx: Database,
  membership: MembershipRow,
  paid: PaidInvoice,
  now: Date,
  announce: Announce,
): Promise<string | undefined> {
  const { invoice, money } = paid;
  if (invoice.status !== "paid") return undefined;
  const existing = await trx
    .selectFrom("orders")
    .select("id")
    .where("stripe_session_id", "=", invoice.id)
    .executeTakeFirst();
  if (existing) return existing.id;
  const waiver = await membershipWaiver(trx, membership, paid.waiverAccepted, now);
  const tax = orderTaxOfInvoice(invoice, paid.taxRate, paid.buyer, waiver);
  const line = invoice.lines.data.find((candidate) => candidate.amount > 0) ?? invoice.lines.data[0];
  const periodStart = line ? toDate(line.period.start) : membership.current_period_start;
  const periodEnd = line ? toDate(line.period.end) : membership.current_period_end;
  const checkoutId = `pay_${randomBytes(12).toString("base64url")}`;
  await trx
    .insertInto("checkouts")
    .values({
      id: checkoutId,
      stripe_session_id: invoice.id,
      stripe_account_id: membership.stripe_account_id,
      seller_id: membership.seller_id,
      product_id: membership.product_id,
      reservation: "none",
      state: "paid",
      network_hash: null,
      visitor_hash: null,
      expires_at: now,
      created_at: now,
      discount_code_id: null,
      code_hold_ends_at: null,
      discount_code: null,
      original_price_cents: invoice.amount_paid,
      membership_tier_id: membership.tier_id,
      billing_interval: membership.billing_interval,
      buyer_locale: membership.buyer_locale,
    })
    .execute();
  const orderId = newOrderId();
  await trx
    .insertInto("orders")
    .values({
      id: orderId,
      stripe_session_id: invoice.id,
      stripe_account_id: membership.stripe_account_id,
      payment_intent_id: paymentIntentOf(invoice),
      seller_id: membership.seller_id,
      product_id: membership.product_id,
      product_title: membership.product_title,
      customer_email: membership.customer_email,
      // What the member paid, in the currency they paid in, and what it settled as in the store's: the
      // invoice's amount in the subscription's currency, unless Adaptive Pricing charged them in theirs
      // or the tier's fixed price in another currency was charged (paid-invoice.ts).
      amount_cents: money.amountCents,
      currency: money.currency,
      settlement_cents: money.settlementCents,
      settlement_currency: money.settlementCurrency,
      status: "completed",
      // A period's downloads count within the period (and its grace days), not a one-time sale's 30 days.
      download_window_ends_at: new Date(periodEnd.getTime() + MEMBERSHIP_LIMITS.graceDays * DAY_MS),
      created_at: now,
      membership_id: membership.id,
      period_start: periodStart,
      period_end: periodEnd,
      buyer_locale: membership.buyer_locale,
      ...tax,
    })
    .execute();
  await deps.orderChanges.created(trx, {
    orderId,
    sellerId: membership.seller_id,
    productId: membership.product_id,
    checkoutId,
    email: membership.customer_email,
    // Totals add up the settlement (docs/money.md).
    amountCents: money.settlementCents,
    delivered: true,
    at: now,
  });
  // A renewal: a paid period after the first (a trial's end included).
  if (invoice.billing_reason === "subscription_cycle" && invoice.amount_paid > 0) {
    await queueMembershipWebhooks(
      trx,
      membership.seller_id,
      "membership.renewed",
      { ...membershipEventData(membership), order_id: orderId },
      now,
    );
  }
  if (invoice.amount_paid > 0) {
    // A new payment restores access the seller ended with a refund of an earlier period.
    if (membership.access_revoked_at) {
      await trx
        .updateTable("memberships")
        .set({ access_revoked_at: null })
        .where("id", "=", membership.id)
        .execute();
    }
    const context = await emailContext(deps, trx, membership, now);
    await deps.outbox.enqueue(
      paymentReceiptEmail(context, {
        // What the member paid, in the currency they paid in.
        amountCents: money.amountCents,
        currency: money.currency,
        periodStart,
        periodEnd,
        orderId,
        // Its invoice was issued by OrderChanges just above (features/invoices).
        invoiceUrl: `${deps.appUrl}${invoicePdfPath(invoiceToken(deps.linkKey, orderId, now))}`,
        tax: orderTaxView(tax),
        withdrawalWaiver: tax.withdrawal_waiver,
      }),
      trx,
    );
  }
  announce(membership.seller_id, { type: "sales.changed" });
  return orderId;
}

/** A renewal failed: the member is told how long access lasts and where to pay (Stripe's invoice page). */
export async function tellPaymentFailed(
  deps: MembershipDeps,
  trx: Database,
  membership: MembershipRow,
  invoice: Stripe.Invoice,
  now: Date,
): Promise<void> {
  // Once per failed invoice: Stripe retries it, and each retry's failure is an event of its own.
  if (invoice.attempt_count > 1) return;
  await queueMembershipWebhooks(
    trx,
    membership.seller_id,
    "membership.payment_failed",
    membershipEventData(membership),
    now,
  );
  const since = membership.past_due_since ?? now;
  const accessUntil = new Date(since.getTime() + MEMBERSHIP_LIMITS.graceDays * DAY_MS);
  const context = await emailContext(deps, trx, membership, now);
  await deps.outbox.enqueue(
    paymentFailedEmail(context, invoice.hosted_invoice_url ?? null, accessUntil),
    trx,
  );
}

/** A membership as the seller's webhooks carry it (docs/webhooks.md). */
export function membershipEventData(membership: MembershipRow): MembershipEventData {
  return {
    membership_id: membership.id,
    product_id: membership.product_id,
    product_title: membership.product_title,
    tier_id: membership.tier_id,
    tier_name: membership.tier_name,
    email: membership.customer_email,
    interval: membership.billing_interval,
    amount: membership.amount_cents,
    currency: membership.currency,
    status: membership.status,
    cancel_at_period_end: membership.cancel_at_period_end,
    current_period_end: membership.current_period_end.toISOString(),
  };
}

/** A disputed payment of a membership (by its payment intent, on its account): that membership's access ends now. */
export async function revokeDisputedAccess(
  trx: Database,
  account: string,
  paymentIntentId: string,
  now: Date,
  announce: Announce,
): Promise<void> {
  const paid = await trx
    .selectFrom("orders")
    .select(["membership_id", "seller_id"])
    .where("stripe_account_id", "=", account)
    .where("payment_intent_id", "=", paymentIntentId)
    .where("membership_id", "is not", null)
    .executeTakeFirst();
  if (!paid?.membership_id) return;
  await trx
    .updateTable("memberships")
    .set({ access_revoked_at: now })
    .where("id", "=", paid.membership_id)
    .where("access_revoked_at", "is", null)
    .execute();
  announce(paid.seller_id, { type: "sales.changed" });
}
