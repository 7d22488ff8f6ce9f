import type Stripe from "stripe";
import { COUNTRY_CURRENCIES, PRESENTMENT_CURRENCIES } from "../currencies.js";

/**
 * The countries the emulator has a country spec for (`GET /v1/country_specs/:country`): where accounts
 * can be made. Each one's default currency is its own currency (currencies.ts), which is also what a
 * new account there gets as `default_currency` and settles in.
 */
export const SPEC_COUNTRIES = [
  "AT",
  "AU",
  "BE",
  "BR",
  "CA",
  "CH",
  "DE",
  "DK",
  "ES",
  "FI",
  "FR",
  "GB",
  "HK",
  "IE",
  "IN",
  "IT",
  "JP",
  "LU",
  "MX",
  "NL",
  "NO",
  "NZ",
  "PL",
  "PT",
  "SE",
  "SG",
  "US",
] as const;

const SPECS = new Set<string>(SPEC_COUNTRIES);

/** Countries whose Stripe accounts charge in their own currency only (Stripe: "Brazilian Stripe accounts can only charge in Brazilian Real"). */
const LOCAL_CURRENCY_ONLY = new Set(["BR"]);

const EUROPE = new Set([
  "AT",
  "BE",
  "CH",
  "DE",
  "DK",
  "ES",
  "FI",
  "FR",
  "GB",
  "IE",
  "IT",
  "LU",
  "NL",
  "NO",
  "PL",
  "PT",
  "SE",
]);

/** Where a US platform can send transfers, as Stripe's US country spec lists it. */
const US_TRANSFER_COUNTRIES = [
  "US",
  "AE",
  "AG",
  "AL",
  "AM",
  "AR",
  "AT",
  "AU",
  "BA",
  "BE",
  "BG",
  "BH",
  "BO",
  "CA",
  "CH",
  "CI",
  "CL",
  "CO",
  "CR",
  "CY",
  "CZ",
  "DE",
  "DK",
  "DO",
  "EC",
  "EE",
  "EG",
  "ES",
  "ET",
  "FI",
  "FR",
  "GB",
  "GH",
  "GM",
  "GR",
  "GT",
  "GY",
  "HK",
  "HR",
  "HU",
  "ID",
  "IE",
  "IL",
  "IS",
  "IT",
  "JM",
  "JO",
  "JP",
  "KE",
  "KH",
  "KR",
  "KW",
  "LC",
  "LI",
  "LK",
  "LT",
  "LU",
  "LV",
  "MA",
  "MD",
  "MG",
  "MK",
  "MN",
  "MO",
  "MT",
  "MU",
  "MX",
  "MY",
  "NA",
  "NG",
  "NL",
  "NO",
  "NZ",
  "OM",
  "PA",
  "PE",
  "PH",
  "PL",
  "PT",
  "PY",
  "QA",
  "RO",
  "RS",
  "RW",
  "SA",
  "SE",
  "SG",
  "SI",
  "SK",
  "SN",
  "SV",
  "TH",
  "TN",
  "TR",
  "TT",
  "TZ",
  "UY",
  "UZ",
  "VN",
  "ZA",
];

export function hasCountrySpec(country: string): boolean {
  return SPECS.has(country);
}

/** The account's currency in a country with a spec; `usd` elsewhere (the emulator has no table for it). */
export function defaultCurrencyOf(country: string): string {
  return (SPECS.has(country) ? COUNTRY_CURRENCIES[country] : undefined) ?? "usd";
}

/**
 * What an account in `country` can charge in: its own currency first, then every other presentment
 * currency (Brazil: only BRL). A country without a spec gets the whole list.
 */
export function supportedPaymentCurrencies(country: string): string[] {
  const own = defaultCurrencyOf(country);
  if (LOCAL_CURRENCY_ONLY.has(country)) return [own];
  return [own, ...PRESENTMENT_CURRENCIES.filter((currency) => currency !== own)];
}

function transferCountries(country: string): string[] {
  if (country === "US") return [...US_TRANSFER_COUNTRIES];
  if (EUROPE.has(country)) return [...EUROPE].sort();
  return [country];
}

const INDIVIDUAL_MINIMUM = [
  "business_profile.mcc",
  "business_profile.url",
  "business_type",
  "external_account",
  "individual.address.city",
  "individual.address.line1",
  "individual.address.postal_code",
  "individual.dob.day",
  "individual.dob.month",
  "individual.dob.year",
  "individual.email",
  "individual.first_name",
  "individual.last_name",
  "individual.phone",
  "tos_acceptance.date",
  "tos_acceptance.ip",
];

const COMPANY_MINIMUM = [
  "business_profile.mcc",
  "business_profile.url",
  "business_type",
  "company.address.city",
  "company.address.line1",
  "company.address.postal_code",
  "company.name",
  "company.phone",
  "company.tax_id",
  "external_account",
  "representative.dob.day",
  "representative.dob.month",
  "representative.dob.year",
  "representative.email",
  "representative.first_name",
  "representative.last_name",
  "representative.phone",
  "tos_acceptance.date",
  "tos_acceptance.ip",
];

/** What Stripe also asks of US accounts: the state, and the SSN's last four digits. */
const US_INDIVIDUAL_EXTRA = ["individual.address.state", "individual.id_number", "individual.ssn_last_4"];
const US_COMPANY_EXTRA = [
  "company.address.state",
  "representative.address.state",
  "representative.ssn_last_4",
];

/** A country's spec, shaped as Stripe's `country_spec` (the verification fields are a plausible set). */
export function buildCountrySpec(country: string): Stripe.CountrySpec {
  const currency = defaultCurrencyOf(country);
  const us = country === "US";
  return {
    id: country,
    object: "country_spec",
    default_currency: currency,
    supported_bank_account_currencies: { [currency]: [country] },
    supported_payment_currencies: supportedPaymentCurrencies(country),
    supported_payment_methods: us ? ["ach", "card", "stripe"] : ["card", "stripe"],
    supported_transfer_countries: transferCountries(country),
    verification_fields: {
      company: {
        additional: [],
        minimum: [...COMPANY_MINIMUM, ...(us ? US_COMPANY_EXTRA : [])].sort(),
      },
      individual: {
        additional: [],
        minimum: [...INDIVIDUAL_MINIMUM, ...(us ? US_INDIVIDUAL_EXTRA : [])].sort(),
      },
    },
  };
}
