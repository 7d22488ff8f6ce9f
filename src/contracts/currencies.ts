import { z } from "zod";
import { formatMoney, minorUnitDigits, parseMoney } from "./money";

/**
 * Currencies a store sells in (docs/money.md): the store currency, fixed prices in others, and how a
 * buyer's currency is chosen. Codes are lowercase, as Stripe writes them; amounts are minor units.
 */

/** The currencies every store may pick from; the seller's Stripe country may add more (its country spec). */
export const STORE_CURRENCIES = ["usd", "eur", "gbp", "cad", "aud", "jpy", "brl", "inr", "mxn"] as const;
export const DEFAULT_STORE_CURRENCY = "usd";

/** The most other-currency prices one product may have. */
export const MAX_OTHER_PRICES = 10;

/** The query parameter of the currency switcher, and the cookie that remembers it (a year). */
export const CURRENCY_PARAM = "currency";
export const CURRENCY_COOKIE = "currency";

export const currencyCodeSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{3}$/, "Choose a currency");

/**
 * Stripe's smallest charge per currency (its "minimum charge amounts" table), in minor units; others
 * are taken as worth at least the 50 cents Stripe asks in USD, which our list keeps conservative.
 */
const MINIMUM_CHARGE: Record<string, number> = {
  usd: 50,
  eur: 50,
  gbp: 30,
  cad: 50,
  aud: 50,
  jpy: 50,
  brl: 50,
  inr: 50,
  mxn: 1000,
  chf: 50,
  nzd: 50,
  sgd: 50,
  hkd: 400,
  dkk: 250,
  nok: 300,
  sek: 300,
  pln: 200,
  czk: 1500,
  huf: 17500,
  ron: 200,
  bgn: 100,
  aed: 200,
  thb: 1000,
  myr: 200,
  // Where Stripe's table gives none: about USD 0.50 or a little more, rounded up (a charge Stripe takes).
  krw: 1000,
  zar: 1000,
  ils: 200,
  try: 2500,
  idr: 1_000_000,
  php: 3000,
  twd: 2000,
  cop: 250_000,
  clp: 500,
  pen: 200,
  sar: 200,
  ngn: 100_000,
  kes: 10_000,
  cny: 400,
  isk: 10_000,
  vnd: 15_000,
};

/** Stripe's smallest card charge in `currency`, in its minor unit. */
export function minimumChargeCents(currency: string): number {
  // Half a unit for any other: always a whole number of minor units (one for a zero-decimal currency).
  return MINIMUM_CHARGE[currency.toLowerCase()] ?? Math.ceil(10 ** minorUnitDigits(currency) / 2);
}

/** A currency's name in the reader's language: "Euro", "Japanese Yen". */
const names = new Map<string, Intl.DisplayNames>();
export function currencyName(currency: string, locale = "en"): string {
  let display = names.get(locale);
  if (!display) {
    display = new Intl.DisplayNames([locale], { type: "currency" });
    names.set(locale, display);
  }
  return display.of(currency.toUpperCase()) ?? currency.toUpperCase();
}

const EURO_COUNTRIES = [
  "AT",
  "BE",
  "CY",
  "DE",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PT",
  "SI",
  "SK",
];
const COUNTRY_CURRENCY: Record<string, string> = {
  ...Object.fromEntries(EURO_COUNTRIES.map((country) => [country, "eur"])),
  US: "usd",
  GB: "gbp",
  CA: "cad",
  AU: "aud",
  JP: "jpy",
  BR: "brl",
  IN: "inr",
  MX: "mxn",
  CH: "chf",
  NZ: "nzd",
  SG: "sgd",
  HK: "hkd",
  DK: "dkk",
  NO: "nok",
  SE: "sek",
  PL: "pln",
  CZ: "czk",
  HU: "huf",
  RO: "ron",
  BG: "bgn",
  AE: "aed",
  TH: "thb",
  MY: "myr",
  KR: "krw",
  ZA: "zar",
  IL: "ils",
  TR: "try",
  ID: "idr",
  PH: "php",
  TW: "twd",
  CO: "cop",
  CL: "clp",
  PE: "pen",
  SA: "sar",
  NG: "ngn",
  KE: "kes",
  CN: "cny",
  IS: "isk",
  VN: "vnd",
};

/**
 * The currencies a buyer's page may be shown in: the store currencies and those of the countries we
 * recognise. A product's fixed prices are in these; a switcher's or cookie's other value is ignored, so
 * the kept pages per currency stay a short list.
 */
export const BUYER_CURRENCIES: ReadonlySet<string> = new Set([
  ...STORE_CURRENCIES,
  ...Object.values(COUNTRY_CURRENCY),
]);

/** The currency of a country (two letters): "DE" → "eur"; undefined when we do not know it. */
export const currencyOfCountry = (country: string | undefined): string | undefined =>
  country ? COUNTRY_CURRENCY[country.toUpperCase()] : undefined;

/**
 * The country an Accept-Language header's first tag with a region names ("de-DE,de;q=0.9" → "DE"):
 * the fallback when no proxy says where the buyer is.
 */
export function countryFromAcceptLanguage(header: string | undefined | null): string | undefined {
  for (const part of (header ?? "").split(",").slice(0, 20)) {
    const region = /^\s*[a-z]{2,3}[-_]([a-z]{2})\b/i.exec(part)?.[1];
    if (region) return region.toUpperCase();
  }
  return undefined;
}

/** What a request says about the buyer's currency, strongest first. */
export interface CurrencyHints {
  /** The switcher's `?currency=`. */
  param?: string | undefined;
  /** The remembered switcher choice. */
  cookie?: string | undefined;
  /** The buyer's country from the proxy or CDN (BUYER_COUNTRY_HEADER). */
  country?: string | undefined;
  acceptLanguage?: string | undefined;
}

/**
 * The currency a buyer asks for, strongest hint first (the switcher, the remembered choice, the
 * country, Accept-Language's region), among BUYER_CURRENCIES; undefined when nothing says.
 */
export function wantedCurrency(hints: CurrencyHints): string | undefined {
  const wanted = [
    hints.param?.toLowerCase(),
    hints.cookie?.toLowerCase(),
    currencyOfCountry(hints.country),
    currencyOfCountry(countryFromAcceptLanguage(hints.acceptLanguage)),
  ];
  return wanted.find((currency) => currency !== undefined && BUYER_CURRENCIES.has(currency));
}

/**
 * The currency a product is shown and sold in to a buyer who wants `wanted`: it, if priced in it, else
 * the store's. A membership is priced in it when one of its tiers is (each tier then shows its own:
 * `offeredCurrency(tierPricing, wanted)`, products/product-prices.ts).
 */
export function offeredCurrency(
  product: {
    currency: string;
    prices: readonly { currency: string }[];
    tiers?: readonly { prices: readonly { currency: string }[] }[];
  },
  wanted: string | undefined,
): string {
  if (!wanted || wanted === product.currency) return product.currency;
  const priced = (prices: readonly { currency: string }[]) =>
    prices.some((price) => price.currency === wanted);
  if (priced(product.prices) || (product.tiers ?? []).some((tier) => priced(tier.prices))) return wanted;
  return product.currency;
}

/**
 * Why `currency` can't have a fixed price beside the store currency and the currencies already priced
 * (`taken`): not one we show buyers, the store's own, or twice. Undefined when it can. Whether the
 * seller's Stripe account takes it is the server's to check (store-currency.ts asks Stripe).
 */
export function otherCurrencyProblem(
  currency: string,
  storeCurrency: string,
  taken: readonly string[],
): string | undefined {
  if (!BUYER_CURRENCIES.has(currency)) return CURRENCY_MESSAGES.notOffered(currency);
  if (currency === storeCurrency) return CURRENCY_MESSAGES.sameAsStore(currency);
  if (taken.includes(currency)) return CURRENCY_MESSAGES.duplicatePrice(currency);
  return undefined;
}

/**
 * A fixed price typed in another currency ("18,50"): its minor units, from Stripe's smallest charge there
 * up to `maxCents`; or why not (more decimals than the currency has, too low or too high).
 */
export function checkOtherAmount(
  input: string | number | null | undefined,
  currency: string,
  maxCents: number,
): { value: number } | { problem: string } {
  const cents = parseMoney(String(input ?? "").trim(), currency);
  if (cents === undefined) return { problem: CURRENCY_MESSAGES.invalidPrice(currency) };
  if (cents < minimumChargeCents(currency) || cents > maxCents) {
    return { problem: CURRENCY_MESSAGES.priceTooLow(currency) };
  }
  return { value: cents };
}

/** A product's price in one currency (its minimum there, for pay what you want). */
export const currencyPriceSchema = z.object({ currency: z.string(), priceCents: z.number().int() });
export type CurrencyPrice = z.infer<typeof currencyPriceSchema>;

/** A fixed price in another currency as the seller types it: EUR and "18". */
export const currencyPriceInputSchema = z.object({
  currency: currencyCodeSchema,
  price: z.union([z.string(), z.number()]),
});
export type CurrencyPriceInput = z.input<typeof currencyPriceInputSchema>;

export const CURRENCY_MESSAGES = {
  locked: "The store currency can't change after your first sale.",
  checkoutOpen:
    "A buyer is paying right now in your current currency. Try again once their checkout has ended (at most an hour).",
  unsupported: (currency: string) => `Your Stripe account can't take payments in ${currency.toUpperCase()}.`,
  duplicatePrice: (currency: string) => `There is already a price in ${currency.toUpperCase()}.`,
  notOffered: (currency: string) => `Prices in ${currency.toUpperCase()} aren't available yet.`,
  sameAsStore: (currency: string) =>
    `${currency.toUpperCase()} is your store currency: set that price above.`,
  tooManyPrices: `A product can have at most ${MAX_OTHER_PRICES} prices in other currencies.`,
  invalidPrice: (currency: string) =>
    minorUnitDigits(currency) === 0
      ? `Enter a whole amount in ${currency.toUpperCase()}, like 1500`
      : `Enter an amount in ${currency.toUpperCase()} with at most ${minorUnitDigits(currency)} decimals, like 18.00`,
  priceTooLow: (currency: string) =>
    `Prices in ${currency.toUpperCase()} start at ${formatMoney(minimumChargeCents(currency), currency)}.`,
  noPriceIn: (currency: string) => `This product has no price in ${currency.toUpperCase()}.`,
  codeOtherCurrency: (currency: string) =>
    `This code takes an amount off in ${currency.toUpperCase()} and can't be used with this price.`,
  otherPricesNeedSettlement: (settlement: string) =>
    `Prices in other currencies need your store currency to be ${settlement.toUpperCase()}, the currency Stripe pays you in.`,
  updatedTitle: "Currency settings saved",
} as const;

/** The store's currency settings as the dashboard shows them. */
export const storeCurrencySettingsSchema = z.object({
  currency: z.string(),
  /** True once the store has a sale: the currency is then fixed. */
  locked: z.boolean(),
  /** What the seller may pick (their Stripe account's country decides beyond STORE_CURRENCIES). */
  choices: z.array(z.object({ code: z.string(), name: z.string() })),
  /** Stripe's Adaptive Pricing on Checkout: buyers without a fixed price pay in their own currency. */
  adaptivePricing: z.boolean(),
  /** The currency Stripe pays the seller in (their account's default currency), when connected. */
  settlementCurrency: z.string().nullable(),
});
export type StoreCurrencySettings = z.infer<typeof storeCurrencySettingsSchema>;

export const storeCurrencyInputSchema = z.object({
  currency: currencyCodeSchema.optional(),
  adaptivePricing: z.boolean().optional(),
});
export type StoreCurrencyInput = z.input<typeof storeCurrencyInputSchema>;
