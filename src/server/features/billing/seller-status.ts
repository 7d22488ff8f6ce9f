import type { SellerStatus } from "../../../contracts/seller";
import type { Database } from "../../db/database";
import { planAccess } from "./plan-standing";

/** Everything the dashboard's gates need about the signed-in seller, read in one query. */
export async function sellerStatus(db: Database, sellerId: string, now: Date): Promise<SellerStatus> {
  const row = await db
    .selectFrom("profiles")
    .leftJoin("subscriptions", "subscriptions.user_id", "profiles.id")
    .select([
      "profiles.stripe_customer_id",
      "profiles.stripe_connect_account_id",
      "profiles.stripe_connect_onboarding_complete",
      "profiles.store_currency",
      "subscriptions.status",
      "subscriptions.current_period_end",
      "subscriptions.cancel_at_period_end",
      "subscriptions.past_due_since",
      "subscriptions.canceled_at",
    ])
    .where("profiles.id", "=", sellerId)
    .executeTakeFirst();

  const subscription = row?.status
    ? { status: row.status, past_due_since: row.past_due_since ?? null, canceled_at: row.canceled_at ?? null }
    : undefined;
  const access = planAccess(subscription, now);
  const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
  return {
    subscription: row?.status
      ? {
          status: row.status,
          currentPeriodEnd: iso(row.current_period_end),
          cancelAtPeriodEnd: row.cancel_at_period_end ?? false,
          pastDueSince: iso(row.past_due_since),
          graceEndsAt: iso(access.graceEndsAt),
          canceledAt: iso(row.canceled_at),
        }
      : null,
    standing: access.standing,
    canUseDashboard: access.canUseDashboard,
    canSell: access.canSell,
    hasBillingAccount: Boolean(row?.stripe_customer_id),
    storeCurrency: row?.store_currency ?? "usd",
    payouts: {
      accountCreated: Boolean(row?.stripe_connect_account_id),
      onboardingComplete: row?.stripe_connect_onboarding_complete ?? false,
    },
  };
}
