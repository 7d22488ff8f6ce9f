import type Stripe from "stripe";
import type { Database } from "../../db/database";

/** One of the account's active registrations: where Stripe Tax collects for the seller. */
export interface TaxRegistration {
  country: string;
  state: string | null;
  type: string;
}

/** What Stripe says of Stripe Tax on the seller's connected account. */
export interface StripeTaxState {
  status: "active" | "pending";
  missingFields: string[];
  headOfficeCountry: string | null;
  registrations: TaxRegistration[];
}

/**
 * Stripe Tax as the seller's account has it: its settings (`status` active once the head office is
 * set) and its active registrations. Always read from Stripe, never from an event's body.
 */
export async function readStripeTax(stripe: Stripe, accountId: string): Promise<StripeTaxState> {
  const options = { stripeAccount: accountId };
  const [settings, registrations] = await Promise.all([
    stripe.tax.settings.retrieve({}, options),
    stripe.tax.registrations.list({ status: "active", limit: 100 }, options),
  ]);
  return {
    status: settings.status === "active" ? "active" : "pending",
    missingFields: settings.status_details.pending?.missing_fields ?? [],
    headOfficeCountry: settings.head_office?.address.country ?? null,
    registrations: registrations.data.map(registrationOf),
  };
}

function registrationOf(registration: Stripe.Tax.Registration): TaxRegistration {
  // country_options has one key, the registration's country in lower case, with its type (and US state).
  const options = registration.country_options as unknown as Record<
    string,
    { type?: string; state?: string } | undefined
  >;
  const own = options[registration.country.toLowerCase()];
  return { country: registration.country, state: own?.state ?? null, type: own?.type ?? "standard" };
}

/** Keeps what Stripe said, so checkouts and pages need not ask it (store_tax_settings). */
export async function recordStripeTax(
  db: Database,
  sellerId: string,
  state: Pick<StripeTaxState, "status" | "missingFields" | "headOfficeCountry">,
  now: Date,
): Promise<void> {
  const values = {
    stripe_tax_status: state.status,
    stripe_tax_missing_fields: JSON.stringify(state.missingFields),
    head_office_country: state.headOfficeCountry,
    stripe_tax_checked_at: now,
  };
  await db
    .insertInto("store_tax_settings")
    .values({ seller_id: sellerId, ...values })
    .onConflict((conflict) => conflict.column("seller_id").doUpdateSet(values))
    .execute();
}
