import type Stripe from "stripe";
import type { Database } from "../../db/database";
import type { SignedInUser } from "../../http/session";

/** The seller's Stripe customer on the platform account, created once and remembered on the profile. */
export async function ensureBillingCustomer(
  db: Database,
  stripe: Stripe,
  seller: SignedInUser,
): Promise<string> {
  const profile = await db
    .selectFrom("profiles")
    .select("stripe_customer_id")
    .where("id", "=", seller.id)
    .executeTakeFirst();
  if (profile?.stripe_customer_id) return profile.stripe_customer_id;

  // The idempotency key makes two concurrent first clicks produce one customer.
  const customer = await stripe.customers.create(
    { email: seller.email, metadata: { seller_id: seller.id } },
    { idempotencyKey: `billing-customer-${seller.id}` },
  );
  await db
    .updateTable("profiles")
    .set({ stripe_customer_id: customer.id, updated_at: new Date() })
    .where("id", "=", seller.id)
    .where("stripe_customer_id", "is", null)
    .execute();
  return customer.id;
}
