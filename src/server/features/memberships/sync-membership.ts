import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import type Stripe from "stripe";
import type { Database } from "../../db/database";
import type { BillingInterval, MembershipTable } from "../../db/schema";

export type MembershipRow = Selectable<MembershipTable>;

/** A subscription as read back from Stripe on one connected account, and when that read was made. */
export interface SubscriptionRead {
  subscription: Stripe.Subscription;
  /** The connected account it was read from (the event's, checked against the seller's). */
  account: string;
  /** The customer's email (the subscription's customer, expanded or read with it). */
  email: string;
  /** When the read was made: an older read never overwrites a newer one. */
  fetchedAt: Date;
}

export interface SyncedMembership {
  membership: MembershipRow;
  /** The row as it was before this read, if there was one. */
  before: MembershipRow | undefined;
}

const newMembershipId = () => `mem_${randomBytes(10).toString("base64url")}`;
const toDate = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

/**
 * Stores a membership as Stripe reports its subscription, inside the caller's transaction. Only a
 * subscription made by our Subscribe (its metadata names the seller, product and tier) on the seller's
 * own connected account counts; anything else is ignored (undefined). The row is locked and a read
 * older than the stored one changes nothing, so events applied in any order, twice, or alongside the
 * reconciliation job, leave the newest state.
 */
export async function syncMembership(
  trx: Database,
  read: SubscriptionRead,
): Promise<SyncedMembership | undefined> {
  const { subscription, account } = read;
  const meta = subscription.metadata ?? {};
  if (!meta.seller_id || !meta.product_id) return undefined;
  const seller = await trx
    .selectFrom("profiles")
    .select("id")
    .where("id", "=", meta.seller_id)
    .where("stripe_connect_account_id", "=", account)
    .executeTakeFirst();
  if (!seller) return undefined;
  const before = await trx
    .selectFrom("memberships")
    .selectAll()
    .where("stripe_subscription_id", "=", subscription.id)
    .forUpdate()
    .executeTakeFirst();
  if (before && before.synced_at.getTime() > read.fetchedAt.getTime()) return { membership: before, before };

  const item = subscription.items.data[0];
  const priceId = item?.price.id;
  // The tier follows the price: a switch of tier on Stripe (or in the portal) moves the member.
  const priced = priceId
    ? await trx
        .selectFrom("membership_tier_prices")
        .select(["tier_id", "billing_interval"])
        .where("stripe_price_id", "=", priceId)
        .executeTakeFirst()
    : undefined;
  const tierId = priced?.tier_id ?? before?.tier_id ?? meta.tier_id ?? null;
  const tier = tierId
    ? await trx
        .selectFrom("membership_tiers")
        .innerJoin("products", "products.id", "membership_tiers.product_id")
        .select([
          "membership_tiers.id",
          "membership_tiers.name",
          "products.title",
          "products.id as product_id",
        ])
        .where("membership_tiers.id", "=", tierId)
        .where("products.user_id", "=", seller.id)
        .executeTakeFirst()
    : undefined;
  const interval: BillingInterval =
    priced?.billing_interval ?? (item?.price.recurring?.interval === "year" ? "year" : "month");
  const status = subscription.status;
  const pastDueSince =
    status === "past_due" ? (before?.status === "past_due" ? before.past_due_since : read.fetchedAt) : null;
  const columns = {
    seller_id: seller.id,
    product_id: tier?.product_id ?? before?.product_id ?? meta.product_id,
    product_title: tier?.title ?? before?.product_title ?? "Membership",
    tier_id: tier?.id ?? null,
    tier_name: tier?.name ?? before?.tier_name ?? "Membership",
    stripe_account_id: account,
    stripe_customer_id:
      typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id,
    customer_email: read.email || before?.customer_email || "",
    billing_interval: interval,
    amount_cents: (item?.price.unit_amount ?? 0) * (item?.quantity ?? 1),
    currency: subscription.currency,
    status,
    cancel_at_period_end: subscription.cancel_at_period_end,
    current_period_start: toDate(item?.current_period_start) ?? read.fetchedAt,
    current_period_end: toDate(item?.current_period_end) ?? read.fetchedAt,
    trial_end: toDate(subscription.trial_end),
    past_due_since: pastDueSince,
    canceled_at: toDate(subscription.canceled_at),
    ended_at: toDate(subscription.ended_at),
    synced_at: read.fetchedAt,
  };
  if (before) {
    const membership = await trx
      .updateTable("memberships")
      .set(columns)
      .where("id", "=", before.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { membership, before };
  }
  // The product may be gone (deleted after the subscription began): the membership is kept without it.
  const productExists = await trx
    .selectFrom("products")
    .select("id")
    .where("id", "=", columns.product_id)
    .where("user_id", "=", seller.id)
    .executeTakeFirst();
  // The member's language is their Subscribe's (the subscription names its checkout): every email about
  // the membership, renewals included, speaks it.
  const checkout = meta.hold_id
    ? await trx
        .selectFrom("checkouts")
        .select("buyer_locale")
        .where("id", "=", meta.hold_id)
        .where("seller_id", "=", seller.id)
        .executeTakeFirst()
    : undefined;
  const membership = await trx
    .insertInto("memberships")
    .values({
      id: newMembershipId(),
      stripe_subscription_id: subscription.id,
      started_at: toDate(subscription.start_date) ?? read.fetchedAt,
      created_at: read.fetchedAt,
      ...columns,
      product_id: productExists ? columns.product_id : null,
      ...(checkout ? { buyer_locale: checkout.buyer_locale } : {}),
    })
    .onConflict((conflict) => conflict.column("stripe_subscription_id").doNothing())
    .returningAll()
    .executeTakeFirst();
  // Another transaction inserted it first (it held no row to lock): read again, as that one left it.
  if (!membership) return syncMembership(trx, read);
  return { membership, before: undefined };
}
