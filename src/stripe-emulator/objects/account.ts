import type Stripe from "stripe";
import { defaultCurrencyOf } from "./country-spec.js";

/** What Stripe asks a new Standard account for before it can take charges. */
const ONBOARDING_REQUIREMENTS = [
  "business_profile.mcc",
  "business_profile.url",
  "business_type",
  "external_account",
  "representative.first_name",
  "representative.last_name",
  "tos_acceptance.date",
  "tos_acceptance.ip",
];

export interface AccountFields {
  email: string | null;
  country: string;
  metadata: Stripe.Metadata;
  businessName: string | null;
}

export function buildAccount(id: string, created: number, fields: AccountFields): Stripe.Account {
  return {
    id,
    object: "account",
    business_profile: {
      mcc: null,
      minority_owned_business_designation: null,
      name: fields.businessName,
      specified_commercial_transactions_act_url: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: null,
    },
    business_type: null,
    capabilities: {},
    charges_enabled: false,
    controller: { is_controller: true, type: "application", stripe_dashboard: { type: "full" } },
    country: fields.country,
    created,
    // The country spec's currency: US usd, GB gbp, JP jpy, DE eur, …
    default_currency: defaultCurrencyOf(fields.country),
    details_submitted: false,
    email: fields.email,
    external_accounts: {
      object: "list",
      data: [],
      has_more: false,
      url: `/v1/accounts/${id}/external_accounts`,
    },
    future_requirements: emptyRequirements(),
    metadata: fields.metadata,
    payouts_enabled: false,
    requirements: {
      ...emptyRequirements(),
      currently_due: [...ONBOARDING_REQUIREMENTS],
      eventually_due: [...ONBOARDING_REQUIREMENTS],
      past_due: [...ONBOARDING_REQUIREMENTS],
      disabled_reason: "requirements.past_due",
    },
    settings: {
      branding: { icon: null, logo: null, primary_color: null, secondary_color: null },
      card_payments: {
        decline_on: { avs_failure: false, cvc_failure: false },
        statement_descriptor_prefix: null,
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
      dashboard: { display_name: fields.businessName, timezone: "Etc/UTC" },
      invoices: { default_account_tax_ids: null, hosted_payment_method_save: "offer" },
      payments: {
        statement_descriptor: null,
        statement_descriptor_kana: null,
        statement_descriptor_kanji: null,
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
      payouts: {
        debit_negative_balances: true,
        schedule: { delay_days: 2, interval: "daily" },
        statement_descriptor: null,
      },
    },
    tos_acceptance: { date: null },
    type: "standard",
  };
}

/** The platform's own account, as `GET /v1/account` shows it: set up, able to charge. */
export function buildPlatformAccount(id: string, created: number): Stripe.Account {
  const account = buildAccount(id, created, {
    email: "platform@example.com",
    country: "US",
    metadata: {},
    businessName: "Local platform",
  });
  account.controller = { type: "account" };
  completeOnboarding(account, created);
  return account;
}

/** The account after the hosted onboarding form was filled in: everything enabled, nothing due. */
export function completeOnboarding(account: Stripe.Account, now: number): void {
  account.charges_enabled = true;
  account.payouts_enabled = true;
  account.details_submitted = true;
  account.business_type = "individual";
  account.capabilities = { card_payments: "active", transfers: "active" };
  account.requirements = emptyRequirements();
  account.tos_acceptance = { date: now, ip: "127.0.0.1", user_agent: null };
  if (account.business_profile) {
    account.business_profile.mcc = "5818";
    account.business_profile.url = account.business_profile.url ?? "https://example.com";
  }
}

function emptyRequirements(): Stripe.Account.Requirements {
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: [],
    disabled_reason: null,
    errors: [],
    eventually_due: [],
    past_due: [],
    pending_verification: [],
  };
}
