import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import type Stripe from "stripe";
import { PURCHASE_RULES } from "../../../contracts/orders";
import type { Announce } from "../../adapters/events/commit-change";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import type { CheckoutTable } from "../../db/schema";
import { countPaidCodeUse } from "../discounts";
import type { OrderChanges } from "../order-lifecycle";
import { libraryPath, libraryToken } from "./buyer-links";
import { purchaseQuery, toBuyerPurchase } from "./buyer-purchase";
import { receiptEmail, unavailableRefundEmail } from "./emails";
import { type OrderMoney, orderMoneyOf } from "./order-money";
import { orderTaxView } from "./order-tax-view";
import { type OrderTaxColumns, orderTaxOf } from "./session-tax";
import { takeUnit } from "./stock";

export interface FulfilmentDeps {
  stripe: Stripe;
  outbox: Outbox;
  appUrl: string;
  linkKey: string;
  /** What else changes with each new order (app.ts lists the steps). */
  orderChanges: OrderChanges;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const newOrderId = () => `ord_${randomBytes(10).toString("base64url")}`;
const idOf = (value: string | { id: string } | null) =>
  typeof value === "string" ? value : (value?.id ?? null);

/** What was paid for a checkout: a Stripe session, or nothing at all for a free claim. */
export interface CheckoutPayment {
  /** The order's key: Stripe's session id, or the free claim's own (`free_…`). */
  sessionId: string;
  email: string;
  /** What was paid, in the buyer's currency, and what it settled as in the store's (order-money.ts). */
  money: OrderMoney;
  paymentIntentId: string | null;
  /** The title to record when the product was deleted meanwhile. */
  fallbackTitle?: string;
  /** Stripe Tax's answer and the buyer's billing details (session-tax.ts); none for a free claim. */
  tax?: OrderTaxColumns;
}

/**
 * The fulfilment of a paid checkout, inside the caller's transaction, from a session as Stripe
 * answered it (see checkout-session.ts: the Connect webhook, the success page's lookup and the
 * reconciliation job all come here). Idempotent: the order is keyed by the session and the checkout
 * row is locked, so a second call (or a redelivered event) returns the existing order and sends nothing.
 */
export async function fulfilCheckout(
  deps: FulfilmentDeps,
  trx: Database,
  session: Stripe.Checkout.Session,
  now: Date,
  announce: Announce,
): Promise<string | undefined> {
  if (session.mode !== "payment" || session.payment_status !== "paid") return undefined;
  const checkout = await trx
    .selectFrom("checkouts")
    .selectAll()
    .where("stripe_session_id", "=", session.id)
    .forUpdate()
    .executeTakeFirst();
  if (!checkout) return undefined;
  const store = await trx
    .selectFrom("profiles")
    .select("store_currency")
    .where("id", "=", checkout.seller_id)
    .executeTakeFirstOrThrow();
  const payment: CheckoutPayment = {
    sessionId: session.id,
    email: session.customer_details?.email ?? session.customer_email ?? "",
    money: await orderMoneyOf(deps.stripe, session, checkout.stripe_account_id, store.store_currency),
    paymentIntentId: idOf(session.payment_intent),
    ...(session.metadata?.product_title ? { fallbackTitle: session.metadata.product_title } : {}),
    tax: orderTaxOf(session, checkout, now),
  };
  return completeCheckout(deps, trx, checkout, payment, now, announce);
}

/**
 * The one fulfilment of a checkout, paid through Stripe (fulfilCheckout) or claimed free
 * (checkout/claim-free-product.ts), with its row locked by the caller: the order is created once per
 * session, the reserved unit confirmed, the code's use counted, the sale totalled and the receipt
 * queued in the same transaction. A payment for a unit that can no longer be delivered is refunded at
 * once and the buyer told why.
 */
export async function completeCheckout(
  deps: FulfilmentDeps,
  trx: Database,
  checkout: Selectable<CheckoutTable>,
  payment: CheckoutPayment,
  now: Date,
  announce: Announce,
): Promise<string> {
  const existing = await trx
    .selectFrom("orders")
    .select("id")
    .where("stripe_session_id", "=", payment.sessionId)
    .executeTakeFirst();
  if (existing) return existing.id;

  const product = checkout.product_id
    ? await trx
        .selectFrom("products")
        .select(["id", "title", "inventory_type"])
        .where("id", "=", checkout.product_id)
        .executeTakeFirst()
    : undefined;
  // A held unit is the buyer's; one released meanwhile must be taken again, if any is left (none
  // is needed once the seller made the product unlimited).
  const deliverable =
    product !== undefined &&
    (checkout.reservation !== "released" ||
      product.inventory_type === "unlimited" ||
      (await takeUnit(trx, product.id)));
  // The code's use is counted once, here: a checkout still open holds it; an ended one gave it back.
  if (checkout.discount_code_id) {
    await countPaidCodeUse(trx, checkout.discount_code_id, {
      held: checkout.state === "open",
      delivered: deliverable,
    });
  }
  await trx
    .updateTable("checkouts")
    .set({
      state: "paid",
      ...(deliverable && checkout.reservation !== "none" ? { reservation: "confirmed" } : {}),
    })
    .where("id", "=", checkout.id)
    .execute();
  const { email, money, paymentIntentId: paymentIntent } = payment;
  const amount = money.amountCents;
  const title = product?.title ?? payment.fallbackTitle ?? "Unknown Product";

  const orderId = newOrderId();
  await trx
    .insertInto("orders")
    .values({
      id: orderId,
      stripe_session_id: payment.sessionId,
      stripe_account_id: checkout.stripe_account_id,
      payment_intent_id: paymentIntent,
      seller_id: checkout.seller_id,
      product_id: product?.id ?? null,
      product_title: title,
      customer_email: email,
      amount_cents: amount,
      currency: money.currency,
      settlement_cents: money.settlementCents,
      settlement_currency: money.settlementCurrency,
      status: deliverable ? "completed" : "refunded",
      refunded_at: deliverable ? null : now,
      download_window_ends_at: new Date(now.getTime() + PURCHASE_RULES.downloadWindowDays * DAY_MS),
      created_at: now,
      discount_code_id: checkout.discount_code_id,
      discount_code: checkout.discount_code,
      discount_cents: checkout.discount_cents,
      // The language the buyer's checkout was made in: the order's emails speak it.
      buyer_locale: checkout.buyer_locale,
      ...payment.tax,
    })
    .execute();
  await deps.orderChanges.created(trx, {
    orderId,
    sellerId: checkout.seller_id,
    productId: product?.id ?? null,
    checkoutId: checkout.id,
    email,
    amountCents: money.settlementCents,
    delivered: deliverable,
    at: now,
  });

  if (deliverable) {
    const row = await purchaseQuery(trx).where("orders.id", "=", orderId).executeTakeFirstOrThrow();
    const purchase = toBuyerPurchase(row, deps.linkKey, now);
    const library = libraryPath(libraryToken(deps.linkKey, email, now));
    const discount = checkout.discount_code
      ? { code: checkout.discount_code, savedCents: checkout.discount_cents }
      : undefined;
    await deps.outbox.enqueue(
      receiptEmail(purchase, deps.appUrl, library, {
        locale: row.buyer_locale,
        tax: orderTaxView(row),
        discount,
      }),
      trx,
    );
  } else if (paymentIntent) {
    // Inside the transaction: if Stripe refuses, nothing is recorded and the event is retried.
    await deps.stripe.refunds.create(
      { payment_intent: paymentIntent, metadata: { reason: "not_deliverable" } },
      { stripeAccount: checkout.stripe_account_id, idempotencyKey: `undeliverable-${payment.sessionId}` },
    );
    await deps.outbox.enqueue(
      unavailableRefundEmail(email, title, amount, money.currency, checkout.buyer_locale),
      trx,
    );
  }
  announce(checkout.seller_id, { type: "sales.changed" });
  return orderId;
}
