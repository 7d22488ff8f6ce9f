import type Stripe from "stripe";
import type { Database } from "../../db/database";

const LIVE_STATUSES = new Set(["active", "trialing", "past_due", "unpaid", "incomplete", "paused"]);
const PAID_STATUSES = new Set(["active", "trialing"]);

/**
 * Whether another subscription of the seller may take the stored one's place: never an ended one
 * over a live one, and never an unpaid one over a paid one (an old subscription still being retried
 * must not lapse a seller who has paid for a new one).
 */
function replaces(incoming: Stripe.Subscription, stored: { status: string }): boolean {
  if (LIVE_STATUSES.has(stored.status) && !LIVE_STATUSES.has(incoming.status)) return false;
  if (PAID_STATUSES.has(stored.status) && !PAID_STATUSES.has(incoming.status)) return false;
  return true;
}
const toDate = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

/** The seller a subscription belongs to: its metadata, else the profile holding its customer. */
async function sellerOf(db: Database, subscription: Stripe.Subscription): Promise<string | undefined> {
  if (subscription.metadata.seller_id) return subscription.metadata.seller_id;
  const customerId =
    typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id;
  const profile = await db
    .selectFrom("profiles")
    .select("id")
    .where("stripe_customer_id", "=", customerId)
    .executeTakeFirst();
  return profile?.id;
}

/**
 * Stores a subscription as Stripe has it now. Callers pass a freshly retrieved object, so events
 * arriving late or out of order cannot roll the state back. An old, ended subscription never
 * overwrites a newer live one (a seller who resubscribed). Returns the seller id it applied to.
 */
export async function storeSubscription(
  db: Database,
  subscription: Stripe.Subscription,
  now: Date,
): Promise<string | undefined> {
  const sellerId = await sellerOf(db, subscription);
  if (!sellerId) return undefined;
  const existing = await db
    .selectFrom("subscriptions")
    .selectAll()
    .where("user_id", "=", sellerId)
    .forUpdate()
    .executeTakeFirst();
  if (existing && existing.stripe_subscription_id !== subscription.id && !replaces(subscription, existing)) {
    return undefined;
  }

  const periodEnd = Math.max(0, ...subscription.items.data.map((item) => item.current_period_end));
  const pastDueSince =
    subscription.status === "past_due"
      ? existing?.status === "past_due" && existing.stripe_subscription_id === subscription.id
        ? existing.past_due_since
        : now
      : null;
  const row = {
    stripe_subscription_id: subscription.id,
    stripe_customer_id:
      typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id,
    status: subscription.status,
    current_period_end: toDate(periodEnd),
    cancel_at_period_end: subscription.cancel_at_period_end,
    past_due_since: pastDueSince,
    canceled_at: toDate(subscription.ended_at ?? subscription.canceled_at),
    updated_at: now,
  };
  await db
    .insertInto("subscriptions")
    .values({ user_id: sellerId, ...row })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet(row))
    .execute();
  return sellerId;
}
