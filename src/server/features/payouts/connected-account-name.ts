import type Stripe from "stripe";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { enqueueJob, type JobHandler, jobKind } from "../../jobs/job-queue";

/**
 * The business name of the seller's connected account: what Stripe's Checkout and receipts show buyers
 * as the merchant. The store's name, as the store's own pages show it.
 */
export function connectedAccountName(storeName: string | null): string {
  return storeName ?? STORE_FALLBACK_NAME;
}

/** Gives a seller's connected account the store's current name (a job of the queue: jobs/job-queue.ts). */
export const renameAccountJob = jobKind<{ sellerId: string }>("payouts.rename-connected-account");

/** In the transaction that renames the store: Stripe is told once it commits, and until it has heard. */
export function enqueueAccountRename(trx: Database, sellerId: string): Promise<void> {
  return enqueueJob(trx, renameAccountJob, { sellerId }, { uniqueKey: `rename-account:${sellerId}` });
}

/**
 * The job: the seller's connected account (if they have one yet) gets the store's name as it is when
 * the job runs, so renames in a row end with the last one. Stripe failing only delays it: retried.
 */
export function renameAccountJobHandler(deps: {
  db: Database;
  stripe: Stripe;
}): JobHandler<{ sellerId: string }> {
  return {
    kind: renameAccountJob,
    maxAttempts: 10,
    run: async ({ sellerId }) => {
      const profile = await deps.db
        .selectFrom("profiles")
        .select(["stripe_connect_account_id", "store_name"])
        .where("id", "=", sellerId)
        .executeTakeFirst();
      if (!profile?.stripe_connect_account_id) return undefined;
      await deps.stripe.accounts.update(profile.stripe_connect_account_id, {
        business_profile: { name: connectedAccountName(profile.store_name) },
      });
      return undefined;
    },
  };
}
