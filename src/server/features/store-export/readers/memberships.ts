import type { ArchiveMembership } from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import { afterTimeId, iso, isoOrNull, keysetPages, type PageOptions, recordsOnly, timeIdKey } from "./keyset";
import { withdrawalWaiver } from "./shapes";

/** memberships.ndjson: every subscription as Stripe last reported it, ended ones too. */
export function readMemberships(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: timeIdKey,
      fetch: (after, limit) =>
        afterTimeId(
          db.selectFrom("memberships").selectAll().where("seller_id", "=", sellerId),
          after,
          limit,
        ).execute(),
      keyOf: (row) => [iso(row.created_at), row.id] as [string, string],
      toPage: recordsOnly((rows) =>
        rows.map(
          (row): ArchiveMembership => ({
            id: row.id,
            productId: row.product_id,
            productTitle: row.product_title,
            tierId: row.tier_id,
            tierName: row.tier_name,
            customerEmail: row.customer_email,
            status: row.status,
            billingInterval: row.billing_interval,
            amountCents: row.amount_cents,
            currency: row.currency,
            cancelAtPeriodEnd: row.cancel_at_period_end,
            currentPeriodStart: iso(row.current_period_start),
            currentPeriodEnd: iso(row.current_period_end),
            trialEnd: isoOrNull(row.trial_end),
            pastDueSince: isoOrNull(row.past_due_since),
            accessRevokedAt: isoOrNull(row.access_revoked_at),
            startedAt: iso(row.started_at),
            canceledAt: isoOrNull(row.canceled_at),
            endedAt: isoOrNull(row.ended_at),
            postEmails: row.post_emails,
            locale: row.buyer_locale,
            withdrawalWaiver: withdrawalWaiver(row.withdrawal_waiver, row.withdrawal_waiver_at),
            createdAt: iso(row.created_at),
            stripe: {
              accountId: row.stripe_account_id,
              subscriptionId: row.stripe_subscription_id,
              customerId: row.stripe_customer_id,
            },
          }),
        ),
      ),
    },
    options,
  );
}
