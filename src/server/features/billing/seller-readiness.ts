import { PRODUCT_MESSAGES } from "../../../contracts/products";
import { BILLING_MESSAGES } from "../../../contracts/seller";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { sellerStatus } from "./seller-status";

/** Creating products needs what the /new gates show: a usable plan and completed Stripe onboarding. */
export async function assertCanManageProducts(db: Database, sellerId: string, now: Date): Promise<void> {
  const status = await sellerStatus(db, sellerId, now);
  if (!status.canUseDashboard || !status.payouts.onboardingComplete) {
    throw new AppError("setup_required", 403, PRODUCT_MESSAGES.setupRequired);
  }
}

/**
 * What reaches people or other servers in the seller's name (webhook endpoints and their sends, API keys,
 * discount codes, emails to buyers) needs a usable plan, as products do: an account that never paid must
 * not make the server send requests or emails. Reading, revoking and deleting stay open.
 */
export async function assertHasActivePlan(db: Database, sellerId: string, now: Date): Promise<void> {
  const status = await sellerStatus(db, sellerId, now);
  if (!status.canUseDashboard) {
    throw new AppError("subscription_required", 403, BILLING_MESSAGES.subscriptionRequired);
  }
}
