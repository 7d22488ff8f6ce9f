import type Stripe from "stripe";
import { SUCCESS_LOOKUP_MINUTES } from "../../../contracts/orders";
import { commitChange } from "../../adapters/events/commit-change";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";
import { enforceRateLimit } from "../../http/rate-limit";
import { purchaseQuery, toBuyerPurchase } from "./buyer-purchase";
import { applyCheckoutSession, retrieveCheckoutSession } from "./checkout-session";
import type { FulfilmentDeps } from "./fulfil-checkout";

/**
 * The success page's lookup by checkout session id, for the first hour after the purchase.
 * When the webhook has not arrived yet, asks Stripe and fulfils right here, so the buyer never waits
 * on webhook delivery. 404 while the payment is not complete: the page polls.
 */
export async function lookupOrderBySession(
  deps: FulfilmentDeps & { db: Database; events: EventBus },
  sessionId: string,
  now: Date,
): Promise<{ purchase: ReturnType<typeof toBuyerPurchase> }> {
  let row = await purchaseQuery(deps.db).where("orders.stripe_session_id", "=", sessionId).executeTakeFirst();
  if (!row) {
    const checkout = await deps.db
      .selectFrom("checkouts")
      .select(["id", "stripe_account_id"])
      .where("stripe_session_id", "=", sessionId)
      .executeTakeFirst();
    if (!checkout) throw notFound("Order not found");
    const session = await retrieveCheckoutSession(deps.stripe, sessionId, checkout.stripe_account_id);
    const orderId = await commitChange(deps, (trx, announce) =>
      applyCheckoutSession(deps, trx, checkout.id, session, now, announce),
    );
    row = orderId
      ? await purchaseQuery(deps.db).where("orders.id", "=", orderId).executeTakeFirstOrThrow()
      : await firstPeriodOf(deps.db, session);
    if (!row) throw notFound("Order not found");
  }
  // The session id is known to the seller too (their Stripe dashboard), so it only works while the
  // buyer is on the success page: afterwards, links come from the receipt sent to the buyer's inbox.
  if (row.created_at.getTime() < now.getTime() - SUCCESS_LOOKUP_MINUTES * 60_000)
    throw notFound("Order not found");
  return { purchase: toBuyerPurchase(row, deps.linkKey, now) };
}

/**
 * A subscription's checkout has no order of its own: its first period (the first invoice's order, made
 * by the membership's events) is what the success page shows. Undefined until that event has landed:
 * the page polls.
 */
async function firstPeriodOf(db: Database, session: Stripe.Checkout.Session) {
  if (session.mode !== "subscription" || !session.subscription) return undefined;
  const subscriptionId =
    typeof session.subscription === "string" ? session.subscription : session.subscription.id;
  return purchaseQuery(db)
    .where("memberships.stripe_subscription_id", "=", subscriptionId)
    .orderBy("orders.created_at", "asc")
    .limit(1)
    .executeTakeFirst();
}

/** The success page refreshes once a second, up to 10 times: room for a few of those a minute. */
const SUCCESS_LOOKUP_LIMIT = { name: "success-lookup:ip", limit: 60, windowSeconds: 60 };

/**
 * The success page's lookup of a checkout session's order (the server-rendered page and the JSON
 * route). An unpaid session costs a Stripe call per look: keep one visitor to what the page needs.
 */
export async function lookupSuccessOrder(
  deps: FulfilmentDeps & { db: Database; events: EventBus; now: () => Date },
  sessionId: string,
  ip: string,
) {
  await enforceRateLimit(deps.db, SUCCESS_LOOKUP_LIMIT, ip, "Too many requests. Please wait a minute.");
  return lookupOrderBySession(deps, sessionId, deps.now());
}

/**
 * The seller a checkout session buys from, known before its order exists: the success page shows the
 * creator's frame while the payment is processing. Undefined for an unknown session.
 */
export async function sellerOfCheckoutSession(db: Database, sessionId: string): Promise<string | undefined> {
  const checkout = await db
    .selectFrom("checkouts")
    .select("seller_id")
    .where("stripe_session_id", "=", sessionId)
    .executeTakeFirst();
  return checkout?.seller_id;
}
