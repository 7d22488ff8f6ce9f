import { BILLING_MESSAGES } from "../../../contracts/seller";
import { AppError } from "../../http/errors";
import type { SignedInUser } from "../../http/session";
import type { BillingDeps } from "./start-plan-checkout";

/** create-portal-session: Stripe's billing portal for Manage Billing and Cancel Subscription. */
export async function openBillingPortal(deps: BillingDeps, seller: SignedInUser): Promise<string> {
  const profile = await deps.db
    .selectFrom("profiles")
    .select("stripe_customer_id")
    .where("id", "=", seller.id)
    .executeTakeFirst();
  if (!profile?.stripe_customer_id) {
    throw new AppError("no_billing_account", 400, BILLING_MESSAGES.noBillingAccount);
  }
  const session = await deps.stripe.billingPortal.sessions.create({
    customer: profile.stripe_customer_id,
    return_url: `${deps.appUrl}/dashboard`,
  });
  return session.url;
}
