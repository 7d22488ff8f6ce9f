import type Stripe from "stripe";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import type { Database } from "../../db/database";

/**
 * The business name of the seller's connected account: what Stripe's Checkout and receipts show buyers
 * as the merchant. The store's name, as the store's own pages show it.
 */
export function connectedAccountName(storeName: string | null): string {
  return storeName ?? STORE_FALLBACK_NAME;
}

/** Gives the seller's connected account (if they have one yet) the store's current name. */
export async function renameConnectedAccount(
  deps: { db: Database; stripe: Stripe },
  sellerId: string,
  storeName: string | null,
): Promise<void> {
  const profile = await deps.db
    .selectFrom("profiles")
    .select("stripe_connect_account_id")
    .where("id", "=", sellerId)
    .executeTakeFirst();
  if (!profile?.stripe_connect_account_id) return;
  await deps.stripe.accounts.update(profile.stripe_connect_account_id, {
    business_profile: { name: connectedAccountName(storeName) },
  });
}
