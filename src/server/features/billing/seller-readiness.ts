import { PRODUCT_MESSAGES } from "../../../contracts/products";
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
