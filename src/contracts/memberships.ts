import { z } from "zod";
import { visitSourceFieldsSchema } from "./analytics";
import {
  CURRENCY_MESSAGES,
  checkOtherAmount,
  currencyCodeSchema,
  MAX_OTHER_PRICES,
  minimumChargeCents,
  otherCurrencyProblem,
} from "./currencies";
import { formatMoney, minorToDecimal, parseMoney } from "./money";

/** A membership's tiers and what a member gets (product rules, "Memberships"). */
export const MEMBERSHIP_LIMITS = {
  minTiers: 1,
  maxTiers: 5,
  tierNameMax: 80,
  tierDescriptionMax: 2000,
  maxTrialDays: 30,
  /** Stripe's smallest charge, and what a buyer may pay per period at most. */
  minPriceCents: 50,
  maxPriceCents: 1_000_000,
  /** Days of access a member keeps after a renewal failed, while Stripe retries and they fix their card. */
  graceDays: 3,
  /** Downloads of each of a tier's files per billing period. */
  downloadsPerFilePerPeriod: 3,
  /** Days before a yearly renewal its reminder goes out. */
  yearlyReminderDays: 7,
} as const;

export const MEMBERSHIP_MESSAGES = {
  tiersMissing: "A membership needs at least one tier.",
  tooManyTiers: `A membership can have at most ${MEMBERSHIP_LIMITS.maxTiers} tiers.`,
  tierNameMissing: "Give every tier a name.",
  tierNameTooLong: `Tier names must be at most ${MEMBERSHIP_LIMITS.tierNameMax} characters.`,
  tierNameTwice: "Each tier needs its own name.",
  tierDescriptionTooLong: `Tier descriptions must be at most ${MEMBERSHIP_LIMITS.tierDescriptionMax} characters.`,
  monthlyPriceMissing: "Every tier needs a monthly price.",
  priceInvalid: "Enter a price like 5 or 4.99.",
  priceTooLow: "Prices must be at least $0.50 (the smallest amount Stripe can charge).",
  priceTooHigh: "Prices can be at most $10,000 a period.",
  trialInvalid: `A free trial is 0 to ${MEMBERSHIP_LIMITS.maxTrialDays} days.`,
  tierFileUnknown: "A tier lists a file that is not one of this product's files.",
  allTiersClosed: "Keep at least one tier open to new members, or deactivate the product.",
  unknownTier: "One of these tiers is not part of this product. Reload the page and try again.",
  tierNotOffered: "This tier is not open to new members.",
  yearlyNotOffered: "This tier has no yearly price.",
  notAMembership: "This product is not a membership.",
  tooManyOtherPrices: `A tier can have at most ${MAX_OTHER_PRICES} prices in other currencies.`,
  otherYearlyMissing: (currency: string) =>
    `This tier has a yearly price: give its price in ${currency.toUpperCase()} a yearly amount too.`,
  otherYearlyWithoutYearly: (currency: string) =>
    `This tier has no yearly price, so its price in ${currency.toUpperCase()} can't have one. Add a yearly price to the tier first.`,
  tierNoPriceIn: (currency: string) => `This tier has no price in ${currency.toUpperCase()}.`,
  kindFixed: "A product stays what it was created as: a one-time product or a membership.",
  noPayWhatYouWant: "Pay what you want does not apply to memberships.",
  membershipNotFound: "This membership was not found. Open your library from your latest membership email.",
  noAccess:
    "This membership gives no access now, so its files are not available. A payment (the open invoice, or subscribing again) brings them back.",
  hasActiveMembers:
    "This membership still has members. Close its tiers to new members and cancel the memberships first, or deactivate the product.",
} as const;

export const billingIntervalSchema = z.enum(["month", "year"]);
export type BillingInterval = z.infer<typeof billingIntervalSchema>;

/**
 * A tier's files as a form sends them: `id` is one of the product's files, `uploadId` one of the uploads
 * in the same request's file list (a file being added now).
 */
export const tierFileRefSchema = z.object({
  id: z.string().min(1).max(64).optional(),
  uploadId: z.string().min(1).max(64).optional(),
});
export type TierFileRef = z.infer<typeof tierFileRefSchema>;

/** A tier's fixed price in another currency as the seller types it: EUR, "4.50" a month, "45" a year. */
export const tierCurrencyPriceInputSchema = z.object({
  currency: currencyCodeSchema,
  monthly: z.union([z.string(), z.number()]),
  /** Only when the tier has a yearly price, and then required. */
  yearly: z.union([z.string(), z.number()]).nullish(),
});
export type TierCurrencyPriceInput = z.input<typeof tierCurrencyPriceInputSchema>;

/** A tier's fixed price in another currency (docs/money.md): amounts of that currency's minor unit. */
export const tierCurrencyPriceSchema = z.object({
  currency: z.string(),
  monthlyPriceCents: z.number().int(),
  yearlyPriceCents: z.number().int().nullable(),
});
export type TierCurrencyPrice = z.infer<typeof tierCurrencyPriceSchema>;

/** One tier as a form sends it. `id` keeps an existing tier (its members stay); none makes a new one. */
export const tierInputSchema = z.object({
  id: z.string().min(1).max(64).optional(),
  name: z.string(),
  description: z.string().optional(),
  monthlyPrice: z.union([z.string(), z.number()]),
  yearlyPrice: z.union([z.string(), z.number()]).nullish(),
  trialDays: z.union([z.string(), z.number()]).nullish(),
  closed: z.boolean().optional(),
  files: z.array(tierFileRefSchema).max(20).default([]),
  /** Fixed prices in other currencies than the store's (the whole list; none when absent). */
  prices: z.array(tierCurrencyPriceInputSchema).max(50).default([]),
});
export type TierInput = z.input<typeof tierInputSchema>;

/** A checked tier, prices in cents. */
export interface CheckedTier {
  id?: string;
  name: string;
  description: string;
  monthlyPriceCents: number;
  yearlyPriceCents: number | null;
  trialDays: number;
  closed: boolean;
  files: TierFileRef[];
  /** Fixed prices in other currencies, each with a yearly amount exactly when the tier has one. */
  prices: TierCurrencyPrice[];
}

type Checked<T> = { value: T } | { problem: string };

/** A tier price's refusals: the dollar texts (the spec's) in a USD store, the same in its own amounts in any other. */
export function tierPriceMessages(currency: string): {
  priceInvalid: string;
  priceTooLow: string;
  priceTooHigh: string;
} {
  if (currency === "usd") {
    const { priceInvalid, priceTooLow, priceTooHigh } = MEMBERSHIP_MESSAGES;
    return { priceInvalid, priceTooLow, priceTooHigh };
  }
  return {
    priceInvalid: CURRENCY_MESSAGES.invalidPrice(currency),
    priceTooLow: CURRENCY_MESSAGES.priceTooLow(currency),
    priceTooHigh: `Prices can be at most ${formatMoney(MEMBERSHIP_LIMITS.maxPriceCents, currency)} a period.`,
  };
}

function checkTierPrice(
  input: string | number | null | undefined,
  required: boolean,
  currency: string,
): Checked<number | null> {
  const text = String(input ?? "").trim();
  if (text === "") return required ? { problem: MEMBERSHIP_MESSAGES.monthlyPriceMissing } : { value: null };
  const cents = parseMoney(text, currency);
  const messages = tierPriceMessages(currency);
  if (cents === undefined) return { problem: messages.priceInvalid };
  if (cents < minimumChargeCents(currency)) return { problem: messages.priceTooLow };
  if (cents > MEMBERSHIP_LIMITS.maxPriceCents) return { problem: messages.priceTooHigh };
  return { value: cents };
}

function checkTrialDays(input: string | number | null | undefined): Checked<number> {
  const text = String(input ?? "").trim();
  if (text === "") return { value: 0 };
  if (!/^\d+$/.test(text) || Number(text) > MEMBERSHIP_LIMITS.maxTrialDays) {
    return { problem: MEMBERSHIP_MESSAGES.trialInvalid };
  }
  return { value: Number(text) };
}

/**
 * A tier's fixed prices in other currencies: at most MAX_OTHER_PRICES, each currency once, one we show
 * buyers and not the store's (otherCurrencyProblem), its amounts from Stripe's smallest charge there (the
 * one-time prices' check, checkOtherAmount), and a yearly amount exactly when the tier has a yearly price.
 */
function checkTierOtherPrices(
  inputs: z.output<typeof tierCurrencyPriceInputSchema>[],
  storeCurrency: string,
  hasYearly: boolean,
): Checked<TierCurrencyPrice[]> {
  if (inputs.length > MAX_OTHER_PRICES) return { problem: MEMBERSHIP_MESSAGES.tooManyOtherPrices };
  const prices: TierCurrencyPrice[] = [];
  for (const input of inputs) {
    const { currency } = input;
    const taken = prices.map((price) => price.currency);
    const problem = otherCurrencyProblem(currency, storeCurrency, taken);
    if (problem) return { problem };
    const monthly = checkOtherAmount(input.monthly, currency, MEMBERSHIP_LIMITS.maxPriceCents);
    if ("problem" in monthly) return monthly;
    const yearlyText = String(input.yearly ?? "").trim();
    if (!hasYearly && yearlyText !== "") {
      return { problem: MEMBERSHIP_MESSAGES.otherYearlyWithoutYearly(currency) };
    }
    if (hasYearly && yearlyText === "") return { problem: MEMBERSHIP_MESSAGES.otherYearlyMissing(currency) };
    const yearly = hasYearly ? checkOtherAmount(yearlyText, currency, MEMBERSHIP_LIMITS.maxPriceCents) : null;
    if (yearly && "problem" in yearly) return yearly;
    prices.push({ currency, monthlyPriceCents: monthly.value, yearlyPriceCents: yearly?.value ?? null });
  }
  return { value: prices };
}

/**
 * Why a tier's prices in other currencies, already in minor units (a store archive's, say), can't be kept
 * in a store selling in `storeCurrency`: the tier editor's own check (checkTierOtherPrices) of the same
 * amounts written out. Undefined when they can.
 */
export function tierOtherPricesProblem(
  prices: readonly TierCurrencyPrice[],
  storeCurrency: string,
  hasYearly: boolean,
): string | undefined {
  const inputs = prices.map((price) => ({
    currency: price.currency,
    monthly: minorToDecimal(price.monthlyPriceCents, price.currency),
    yearly: price.yearlyPriceCents === null ? null : minorToDecimal(price.yearlyPriceCents, price.currency),
  }));
  const checked = checkTierOtherPrices(inputs, storeCurrency, hasYearly);
  return "problem" in checked ? checked.problem : undefined;
}

/** One tier's fields, or the first problem with them. */
function checkTier(input: z.output<typeof tierInputSchema>, currency: string): Checked<CheckedTier> {
  const name = input.name.trim();
  if (name === "") return { problem: MEMBERSHIP_MESSAGES.tierNameMissing };
  if (name.length > MEMBERSHIP_LIMITS.tierNameMax) return { problem: MEMBERSHIP_MESSAGES.tierNameTooLong };
  const description = (input.description ?? "").trim();
  if (description.length > MEMBERSHIP_LIMITS.tierDescriptionMax) {
    return { problem: MEMBERSHIP_MESSAGES.tierDescriptionTooLong };
  }
  const monthly = checkTierPrice(input.monthlyPrice, true, currency);
  if ("problem" in monthly) return monthly;
  const yearly = checkTierPrice(input.yearlyPrice, false, currency);
  if ("problem" in yearly) return yearly;
  const trialDays = checkTrialDays(input.trialDays);
  if ("problem" in trialDays) return trialDays;
  if (input.files.some((file) => (file.id === undefined) === (file.uploadId === undefined))) {
    return { problem: MEMBERSHIP_MESSAGES.tierFileUnknown };
  }
  const prices = checkTierOtherPrices(input.prices, currency, yearly.value !== null);
  if ("problem" in prices) return prices;
  return {
    value: {
      ...(input.id ? { id: input.id } : {}),
      name,
      description,
      monthlyPriceCents: monthly.value ?? 0,
      yearlyPriceCents: yearly.value,
      trialDays: trialDays.value,
      closed: input.closed ?? false,
      files: input.files,
      prices: prices.value,
    },
  };
}

/** The whole list of a membership's tiers: 1 to 5, names unique, at least one open to new members. */
export function checkTiers(
  inputs: z.output<typeof tierInputSchema>[],
  currency = "usd",
): Checked<CheckedTier[]> {
  if (inputs.length < MEMBERSHIP_LIMITS.minTiers) return { problem: MEMBERSHIP_MESSAGES.tiersMissing };
  if (inputs.length > MEMBERSHIP_LIMITS.maxTiers) return { problem: MEMBERSHIP_MESSAGES.tooManyTiers };
  const tiers: CheckedTier[] = [];
  const names = new Set<string>();
  for (const input of inputs) {
    const tier = checkTier(input, currency);
    if ("problem" in tier) return tier;
    const key = tier.value.name.toLowerCase();
    if (names.has(key)) return { problem: MEMBERSHIP_MESSAGES.tierNameTwice };
    names.add(key);
    tiers.push(tier.value);
  }
  if (tiers.every((tier) => tier.closed)) return { problem: MEMBERSHIP_MESSAGES.allTiersClosed };
  return { value: tiers };
}

/** A membership's lowest monthly price among tiers open to new members: what listings show ("from"). */
export function lowestMonthlyCents(tiers: readonly Pick<CheckedTier, "monthlyPriceCents" | "closed">[]) {
  const open = tiers.filter((tier) => !tier.closed);
  return Math.min(...(open.length > 0 ? open : tiers).map((tier) => tier.monthlyPriceCents));
}

/**
 * What a year costs against twelve months, in whole percent (0 when the yearly price saves nothing):
 * the saving the product page shows next to the yearly price.
 */
export function yearlySavingPercent(monthlyCents: number, yearlyCents: number | null): number {
  if (yearlyCents === null) return 0;
  const twelveMonths = monthlyCents * 12;
  if (yearlyCents >= twelveMonths) return 0;
  return Math.floor(((twelveMonths - yearlyCents) * 100) / twelveMonths);
}

/** Subscribe: a tier of a membership product at its monthly or yearly price. */
export const subscribeSchema = z.object({
  productId: z.string().min(1).max(64),
  tierId: z.string().min(1).max(64),
  interval: billingIntervalSchema.default("month"),
  /** A discount code the buyer typed; the server decides the discount with it. */
  code: z.string().max(200).optional(),
  /** The currency the page showed the tier's price in; the tier must have a price in it (docs/money.md). */
  currency: z.string().max(8).optional(),
  /** Subscribing as a business: the name and EU VAT number for the invoices (checked before Checkout). */
  businessName: z.string().max(300).optional(),
  vatNumber: z.string().max(60).optional(),
  /** Where the visit came from (the product page's source fields); kept for the sale's attribution. */
  ...visitSourceFieldsSchema.shape,
});

/** One tier as sellers and buyers see it. */
export const tierSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  monthlyPriceCents: z.number(),
  yearlyPriceCents: z.number().nullable(),
  trialDays: z.number(),
  closed: z.boolean(),
  /** The product files this tier gives access to (their ids). */
  fileIds: z.array(z.string()),
  /**
   * The currency its monthly and yearly prices are amounts of: the store's, or on a buyer's page the
   * buyer's when the tier has a fixed price in it (products/product-prices.ts, productInCurrency).
   */
  currency: z.string(),
  /** Its fixed prices in the other currencies (on a buyer's page in another currency, the store's among them). */
  prices: z.array(tierCurrencyPriceSchema),
});
export type Tier = z.infer<typeof tierSchema>;

/** Where a membership stands, in words a member and a seller read. */
export const MEMBERSHIP_STATUS_LABELS = {
  trialing: "Trial",
  active: "Active",
  past_due: "Past due",
  canceling: "Canceled at period end",
  ended: "Ended",
} as const;
export type MembershipStatusLabel = keyof typeof MEMBERSHIP_STATUS_LABELS;

/** The status a membership shows: Stripe's, with a cancellation at period end and every end folded in. */
export function membershipStatusOf(membership: {
  status: string;
  cancelAtPeriodEnd: boolean;
}): MembershipStatusLabel {
  if (membership.status === "trialing") return membership.cancelAtPeriodEnd ? "canceling" : "trialing";
  if (membership.status === "active") return membership.cancelAtPeriodEnd ? "canceling" : "active";
  if (membership.status === "past_due") return "past_due";
  return "ended";
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** What access is decided from: the subscription's state as Stripe last reported it, and the seller's word. */
export interface MembershipState {
  status: string;
  current_period_end: Date;
  past_due_since: Date | null;
  access_revoked_at: Date | null;
}

/**
 * Whether a member may read the tier's posts and download its files now: the one rule for access
 * (product rules, "Memberships"). Paid or trialing: until the period ends, plus the grace days, so a
 * renewal Stripe has charged but not yet told us about never locks a member out. Past due: for the grace
 * days after the renewal failed, then not until it is paid. Anything else (canceled, unpaid, incomplete),
 * or access the seller ended (a refund that ends the period, a dispute): none.
 */
export function hasMembershipAccess(membership: MembershipState, now: Date): boolean {
  if (membership.access_revoked_at) return false;
  const grace = MEMBERSHIP_LIMITS.graceDays * DAY_MS;
  if (membership.status === "active" || membership.status === "trialing") {
    return now.getTime() < membership.current_period_end.getTime() + grace;
  }
  if (membership.status === "past_due") {
    const since = membership.past_due_since ?? membership.current_period_end;
    return now.getTime() < since.getTime() + grace;
  }
  return false;
}

/** The members page's filters (a status as members see it) and page size. */
export const MEMBER_STATUS_FILTERS = ["all", "trialing", "active", "past_due", "canceling", "ended"] as const;
export const membersQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: z.string().max(400).optional(),
  q: z.string().trim().max(200).optional(),
  status: z.enum(MEMBER_STATUS_FILTERS).default("all"),
  productId: z.string().max(64).optional(),
});
export type MembersQuery = z.infer<typeof membersQuerySchema>;

/** One member as the seller sees them. */
export const memberSchema = z.object({
  id: z.string(),
  email: z.string(),
  productId: z.string().nullable(),
  productTitle: z.string(),
  tierName: z.string(),
  interval: billingIntervalSchema,
  amountCents: z.number(),
  /** The currency the member pays in (the subscription's): amountCents and lifetimeSpendCents are amounts of it. */
  currency: z.string().default("usd"),
  status: z.enum(["trialing", "active", "past_due", "canceling", "ended"]),
  statusLabel: z.string(),
  startedAt: z.string(),
  /** When it renews, or when it ends (canceling) or ended. */
  currentPeriodEnd: z.string(),
  endedAt: z.string().nullable(),
  /** Every payment of the membership, refunds taken back. */
  lifetimeSpendCents: z.number(),
  hasAccess: z.boolean(),
});
export type Member = z.infer<typeof memberSchema>;
export const membersPageSchema = z.object({
  members: z.array(memberSchema),
  nextCursor: z.string().nullable(),
});
export type MembersPage = z.infer<typeof membersPageSchema>;

export const cancelMembershipSchema = z.object({ when: z.enum(["now", "period_end"]) });
export const refundLastPaymentSchema = z.object({
  /** Also end the access of the period it paid for (a refund alone leaves it). */
  endAccess: z.boolean().default(false),
});

export const MEMBER_ACTION_MESSAGES = {
  notFound: "Member not found",
  alreadyEnded: "This membership has already ended.",
  nothingToRefund: "This membership has no payment left to refund.",
} as const;

export const membersCsvFileName = (now: Date, timeZone: string) =>
  `members-${new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now)}.csv`;

/** A member's switch of tier or interval, from their library (authorized by its link's token). */
export const membershipChangeSchema = z.object({
  token: z.string().min(1).max(2000),
  tierId: z.string().min(1).max(64),
  interval: billingIntervalSchema,
});
export const membershipChangeConfirmSchema = membershipChangeSchema.extend({
  /** The moment the preview prorated to (its `prorationDate`): the confirmed change bills what was shown. */
  prorationDate: z.number().int().positive(),
});

/** What a switch costs now, as Stripe computes it: shown before the member confirms. */
export const membershipChangePreviewSchema = z.object({
  tierName: z.string(),
  interval: billingIntervalSchema,
  /** The new tier's price per period. */
  amountCents: z.number(),
  /** Charged now: the new tier's remaining time less the unused time of the current one (0 or more). */
  amountDueCents: z.number(),
  /** Credit kept for the next invoices when the switch costs less than what is left of the current one. */
  creditCents: z.number(),
  lines: z.array(z.object({ description: z.string(), amountCents: z.number() })),
  prorationDate: z.number(),
});
export type MembershipChangePreview = z.infer<typeof membershipChangePreviewSchema>;

export const MEMBERSHIP_CHANGE_MESSAGES = {
  sameChoice: "This is already your tier and billing interval.",
  notChangeable: "Only an active membership can switch tier. Resume it or pay the open invoice first.",
  tierUnavailable: "This tier is not open to new members.",
  changed: "Your membership was switched.",
} as const;
