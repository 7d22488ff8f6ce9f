import type Stripe from "stripe";
import { BILLING_MESSAGES } from "../../../contracts/seller";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import type { SignedInUser } from "../../http/session";
import { sellerStatus } from "../billing";
import { connectedAccountName } from "./connected-account-name";

export interface PayoutDeps {
  db: Database;
  stripe: Stripe;
  appUrl: string;
}

/** The seller's Standard connected account, created once per seller. */
async function ensureConnectedAccount(deps: PayoutDeps, seller: SignedInUser): Promise<string> {
  const profile = await deps.db
    .selectFrom("profiles")
    .select(["stripe_connect_account_id", "store_name"])
    .where("id", "=", seller.id)
    .executeTakeFirst();
  if (profile?.stripe_connect_account_id) return profile.stripe_connect_account_id;

  // The email is the owner's, for Stripe to reach them; buyers see the business name.
  const account = await deps.stripe.accounts.create(
    {
      type: "standard",
      email: seller.email,
      business_profile: { name: connectedAccountName(profile?.store_name ?? null) },
      metadata: { seller_id: seller.id },
    },
    { idempotencyKey: `connect-account-${seller.id}` },
  );
  await deps.db
    .updateTable("profiles")
    .set({ stripe_connect_account_id: account.id, updated_at: new Date() })
    .where("id", "=", seller.id)
    .where("stripe_connect_account_id", "is", null)
    .execute();
  return account.id;
}

/**
 * stripe-connect-onboard: a fresh Stripe onboarding link for the seller's account. Completion is
 * only ever taken from Stripe's `account.updated`, never from the return URL.
 */
export async function startOnboarding(deps: PayoutDeps, seller: SignedInUser, now: Date): Promise<string> {
  const status = await sellerStatus(deps.db, seller.id, now);
  if (!status.canUseDashboard) {
    throw new AppError("subscription_required", 403, BILLING_MESSAGES.subscriptionRequired);
  }
  const account = await ensureConnectedAccount(deps, seller);
  const link = await deps.stripe.accountLinks.create({
    account,
    type: "account_onboarding",
    refresh_url: `${deps.appUrl}/api/payouts/onboarding/refresh`,
    return_url: `${deps.appUrl}/dashboard?stripe_connect=success`,
  });
  return link.url;
}
