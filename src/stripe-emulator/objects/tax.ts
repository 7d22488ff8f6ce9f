import type Stripe from "stripe";
import { type LineTax, ratePercentage } from "../tax/calculate.js";

/** A fresh account's tax settings: nothing set, `pending` on the head office. */
export function buildTaxSettings(): Stripe.Tax.Settings {
  return {
    object: "tax.settings",
    defaults: { provider: "stripe", tax_behavior: null, tax_code: null },
    head_office: null,
    livemode: false,
    status: "pending",
    status_details: { pending: { missing_fields: ["head_office"] } },
  };
}

/** Settings are `active` once the head office is known, as Stripe's are. */
export function refreshTaxSettingsStatus(settings: Stripe.Tax.Settings): void {
  if (settings.head_office) {
    settings.status = "active";
    settings.status_details = { active: {} };
  } else {
    settings.status = "pending";
    settings.status_details = { pending: { missing_fields: ["head_office"] } };
  }
}

export function buildAddress(fields: Partial<Stripe.Address>): Stripe.Address {
  return {
    city: fields.city ?? null,
    country: fields.country ?? null,
    line1: fields.line1 ?? null,
    line2: fields.line2 ?? null,
    postal_code: fields.postal_code ?? null,
    state: fields.state ?? null,
  };
}

/** The EU member states' registration types (all share one shape in the SDK). */
export type EuRegistrationType = "ioss" | "oss_non_union" | "oss_union" | "standard";

export interface RegistrationFields {
  country: string;
  countryOptions: Stripe.Tax.Registration.CountryOptions;
  activeFrom: number;
  expiresAt: number | null;
}

export function buildRegistration(
  id: string,
  created: number,
  fields: RegistrationFields,
): Stripe.Tax.Registration {
  return {
    id,
    object: "tax.registration",
    active_from: fields.activeFrom,
    country: fields.country,
    country_options: fields.countryOptions,
    created,
    expires_at: fields.expiresAt,
    livemode: false,
    status: registrationStatus(fields.activeFrom, fields.expiresAt, created),
  };
}

/** `scheduled` before `active_from`, `expired` from `expires_at`, else `active`. */
export function registrationStatus(
  activeFrom: number,
  expiresAt: number | null,
  now: number,
): Stripe.Tax.Registration.Status {
  if (expiresAt !== null && expiresAt <= now) return "expired";
  if (activeFrom > now) return "scheduled";
  return "active";
}

/** The tax rate Stripe Tax shows for one place (0% where nothing is collected). */
export function buildTaxRate(id: string, created: number, tax: LineTax): Stripe.TaxRate {
  const percentage = ratePercentage(tax.rate);
  const rule = tax.rule;
  return {
    id,
    object: "tax_rate",
    active: false,
    country: tax.place.country,
    created,
    description: null,
    display_name: rule?.displayName ?? "Tax",
    effective_percentage: percentage,
    flat_amount: null,
    inclusive: tax.inclusive,
    jurisdiction: rule?.jurisdiction ?? tax.place.country,
    jurisdiction_level: rule?.jurisdictionLevel ?? "country",
    livemode: false,
    metadata: null,
    percentage,
    rate_type: "percentage",
    state: tax.place.state,
    tax_type: rule?.taxType ?? null,
  };
}

export function buildTaxId(
  id: string,
  created: number,
  fields: { customer: string; type: Stripe.TaxId.Type; value: string },
): Stripe.TaxId {
  return {
    id,
    object: "tax_id",
    country: taxIdCountry(fields.type, fields.value),
    created,
    customer: fields.customer,
    customer_account: null,
    livemode: false,
    owner: { customer: fields.customer, customer_account: null, type: "customer" },
    type: fields.type,
    value: fields.value,
    verification: { status: "pending", verified_address: null, verified_name: null },
  };
}

/** `eu_vat` numbers start with their country (Greece's with EL); other types name it. */
export function taxIdCountry(type: string, value: string): string | null {
  if (type === "eu_vat") {
    const prefix = value.slice(0, 2).toUpperCase();
    return prefix === "EL" ? "GR" : /^[A-Z]{2}$/.test(prefix) ? prefix : null;
  }
  const fromType = type.split("_")[0] ?? "";
  return fromType.length === 2 ? fromType.toUpperCase() : null;
}
