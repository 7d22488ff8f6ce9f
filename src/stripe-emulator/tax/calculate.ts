// Stripe Tax, deterministically: a small fixed rate table, Stripe's rule that tax is collected only
// where the account is registered, reverse charge and exemptions, and integer rounding half-up.
// Pure: no emulator state, so the hosted page, the API and the tests all compute the same numbers.

/** Rates are thousandths of a percent: 19% = 19000, 8.875% = 8875. No float touches money. */
export const RATE_SCALE = 100_000;

export const EU_MEMBERS = [
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "HU",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
] as const;

export type TaxType = "vat" | "sales_tax";

export interface TaxRule {
  country: string;
  /** A US state's two-letter code; `null` for a country-wide rate. */
  state: string | null;
  /** Thousandths of a percent. */
  rate: number;
  displayName: "VAT" | "Sales Tax";
  taxType: TaxType;
  jurisdiction: string;
  jurisdictionLevel: "country" | "state";
}

export const TAX_RULES: readonly TaxRule[] = [
  vat("DE", 19_000),
  vat("FR", 20_000),
  vat("IE", 23_000),
  vat("GB", 20_000),
  salesTax("NY", "New York", 8_875),
  salesTax("TX", "Texas", 6_250),
];

function vat(country: string, rate: number): TaxRule {
  return {
    country,
    state: null,
    rate,
    displayName: "VAT",
    taxType: "vat",
    jurisdiction: country,
    jurisdictionLevel: "country",
  };
}

function salesTax(state: string, name: string, rate: number): TaxRule {
  return {
    country: "US",
    state,
    rate,
    displayName: "Sales Tax",
    taxType: "sales_tax",
    jurisdiction: name.toUpperCase(),
    jurisdictionLevel: "state",
  };
}

export interface Place {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** For the US: the state's two-letter code. */
  state: string | null;
}

/** An active registration, reduced to what decides coverage. */
export interface Coverage {
  country: string;
  type: string;
  /** US registrations are per state. */
  state: string | null;
}

export type TaxabilityReason = "standard_rated" | "not_collecting" | "reverse_charge" | "customer_exempt";

export interface Buyer {
  place: Place;
  /** The customer's `tax_exempt`. */
  taxExempt: "none" | "exempt" | "reverse";
  /** The buyer gave an EU VAT number (`eu_vat`), on the page or on the customer. */
  euVatId: boolean;
}

export interface LineInput {
  /** After discounts, in the smallest currency unit. */
  amount: number;
  behavior: "inclusive" | "exclusive";
}

export interface LineTax {
  /** Tax in the smallest currency unit; inside `amount` when inclusive, on top when exclusive. */
  amount: number;
  /** What the tax was computed on, excluding tax; 0 when nothing is collected or the buyer is exempt. */
  taxableAmount: number;
  reason: TaxabilityReason;
  /** The rate applied, thousandths of a percent (0 unless `standard_rated`). */
  rate: number;
  inclusive: boolean;
  /** The place's rule, or `null` for a place outside the table. */
  rule: TaxRule | null;
  place: Place;
}

export function isEu(country: string): boolean {
  return (EU_MEMBERS as readonly string[]).includes(country);
}

export function normalizePlace(country: string, state: string | null | undefined): Place {
  const upper = country.trim().toUpperCase();
  return { country: upper, state: upper === "US" && state ? state.trim().toUpperCase() : null };
}

/** The table's rule for a place: US rules are per state, others per country. */
export function ruleFor(place: Place): TaxRule | null {
  return (
    TAX_RULES.find(
      (rule) => rule.country === place.country && (rule.state === null || rule.state === place.state),
    ) ?? null
  );
}

/**
 * Whether the account collects tax in a place: an EU country needs a registration of that country or
 * an OSS one (`oss_union`, `oss_non_union`: every member state); GB a GB registration; a US state a US
 * registration for that state; anywhere else a registration of that country.
 */
export function isCovered(place: Place, registrations: readonly Coverage[]): boolean {
  return registrations.some((registration) => {
    if (place.country === "US") return registration.country === "US" && registration.state === place.state;
    if (registration.country === place.country) return true;
    return (
      isEu(place.country) &&
      isEu(registration.country) &&
      (registration.type === "oss_union" || registration.type === "oss_non_union")
    );
  });
}

/** `numerator / denominator` rounded half-up, both non-negative integers. */
export function divideHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** Exclusive: amount × rate. Inclusive: amount − amount / (1 + rate) = amount × rate / (1 + rate). */
export function taxOn(amount: number, rate: number, behavior: "inclusive" | "exclusive"): number {
  if (amount <= 0 || rate <= 0) return 0;
  return behavior === "exclusive"
    ? divideHalfUp(amount * rate, RATE_SCALE)
    : divideHalfUp(amount * rate, RATE_SCALE + rate);
}

/** Why a buyer pays what they pay: `standard_rated` when the place's rate applies, else the reason for 0. */
export function taxability(buyer: Buyer, registrations: readonly Coverage[]): TaxabilityReason {
  if (!isCovered(buyer.place, registrations)) return "not_collecting";
  if (buyer.taxExempt === "exempt") return "customer_exempt";
  if (buyer.taxExempt === "reverse") return "reverse_charge";
  if (buyer.euVatId && isEu(buyer.place.country)) return "reverse_charge";
  return ruleFor(buyer.place) ? "standard_rated" : "not_collecting";
}

/** The tax of each line for one buyer. */
export function calculateTax(
  lines: readonly LineInput[],
  buyer: Buyer,
  registrations: readonly Coverage[],
): LineTax[] {
  const reason = taxability(buyer, registrations);
  const rule = ruleFor(buyer.place);
  const rate = reason === "standard_rated" && rule ? rule.rate : 0;
  return lines.map((line) => {
    const amount = taxOn(line.amount, rate, line.behavior);
    const net = line.behavior === "inclusive" ? line.amount - amount : line.amount;
    return {
      amount,
      taxableAmount: reason === "standard_rated" || reason === "reverse_charge" ? net : 0,
      reason,
      rate,
      inclusive: line.behavior === "inclusive",
      rule,
      place: buyer.place,
    };
  });
}

/** Sums per line: what is added to the total (exclusive tax) and all tax (`amount_tax`). */
export function taxTotals(taxes: readonly LineTax[]): { exclusive: number; all: number } {
  let exclusive = 0;
  let all = 0;
  for (const tax of taxes) {
    all += tax.amount;
    if (!tax.inclusive) exclusive += tax.amount;
  }
  return { exclusive, all };
}

/** "19%", "8.875%": a rate for people. */
export function formatRate(rate: number): string {
  const whole = Math.floor(rate / 1000);
  const fraction = String(rate % 1000)
    .padStart(3, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}%` : `${whole}%`;
}

/** A rate as Stripe's `percentage` (a JSON number): 8875 → 8.875. Display only, never used for money. */
export function ratePercentage(rate: number): number {
  return Number(formatRate(rate).slice(0, -1));
}
