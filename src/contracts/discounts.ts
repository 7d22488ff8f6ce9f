import { z } from "zod";
import { formatPrice, parseMoney } from "./money";
import { PRODUCT_LIMITS } from "./products";

export const DISCOUNT_LIMITS = {
  codeMinLength: 3,
  codeMaxLength: 32,
  maxUses: 1_000_000,
  /** Products one code can be limited to (the seller's page lists up to this many). */
  maxChosenProducts: 100,
  /** Codes one seller can have at a time. */
  codesPerSeller: 200,
} as const;

/** Why a code does not lower a price. */
export const discountRefusalSchema = z.enum([
  "unknown",
  "not_started",
  "expired",
  "used_up",
  "paused",
  "not_for_product",
  "other_currency",
]);
export type DiscountRefusal = z.infer<typeof discountRefusalSchema>;

/** What a buyer is told when a code does not apply; the full price stays. */
export const DISCOUNT_REFUSAL_MESSAGES: Record<DiscountRefusal, string> = {
  unknown: "This discount code doesn't exist. Check the spelling and try again.",
  not_started: "This discount code isn't active yet.",
  expired: "This discount code has expired.",
  used_up: "This discount code has been used up.",
  paused: "This discount code is paused right now.",
  not_for_product: "This discount code doesn't apply to this product.",
  other_currency: "This discount code can't be used with prices in this currency.",
};

export const DISCOUNT_MESSAGES = {
  pageTitle: "Discount codes",
  codeRequired: "Enter a code",
  codeCharacters: "Use only letters, digits, - and _ (no spaces)",
  codeLength: `A code is ${DISCOUNT_LIMITS.codeMinLength} to ${DISCOUNT_LIMITS.codeMaxLength} characters long`,
  codeTaken: "You already have a code with this name",
  valueRequired: "Enter how much the code takes off",
  percentInvalid: "Percent off must be a whole number from 1 to 100",
  amountInvalid: "Amount off must be a number with at most 2 decimals, like 5 or 4.99",
  amountTooHigh: `Amount off must be at most ${formatPrice(PRODUCT_LIMITS.maxPriceCents)}`,
  productsRequired: "Choose at least one product",
  tooManyProducts: `Choose at most ${DISCOUNT_LIMITS.maxChosenProducts} products`,
  productsNotYours: "Some of the chosen products no longer exist. Reload the page and choose again.",
  dateInvalid: "Enter a valid date",
  endBeforeStart: "The end date must be after the start date",
  maxUsesInvalid: `Maximum uses must be a whole number from 1 to ${DISCOUNT_LIMITS.maxUses.toLocaleString("en-US")}, or empty for no limit`,
  maxUsesBelowUses: "Maximum uses can't be lower than the uses so far",
  tooManyCodes: `You can have at most ${DISCOUNT_LIMITS.codesPerSeller} discount codes. Delete some you no longer use.`,
  notFound: "Discount code not found",
  createdTitle: "Discount code created",
  savedTitle: "Discount code saved",
  pausedTitle: "Code paused",
  paused: "Buyers can't use it until you resume it.",
  resumedTitle: "Code resumed",
  deletedTitle: "Discount code deleted",
  deleteConfirmTitle: "Delete discount code",
  deleteConfirm:
    "Delete this code? Buyers can no longer use it. Past sales keep the code and the amount they saved.",
  saveFailedTitle: "Couldn't save the code",
  offerLinkCopied: "Offer link copied!",
  loadFailed: "We couldn't load your discount codes.",
} as const;

/** "summer-sale" → "SUMMER-SALE": codes are case-insensitive, stored and shown upper-case. */
export const normalizeDiscountCode = (code: string) => code.trim().toUpperCase();

const CODE_CHARACTERS = /^[A-Za-z0-9_-]+$/;
const WHOLE_NUMBER = /^\d{1,9}$/;

/**
 * The seller's form, as sent: texts as typed (value "20" or "4.99", maxUses "" for no limit) and
 * dates as ISO timestamps (the browser turns its local dates into instants). Parsed by
 * discountCodeInputSchema, which reports every field's problem at once (the form shows each next to
 * its field).
 */
export const discountCodeFieldsSchema = z.object({
  code: z.string().max(200, DISCOUNT_MESSAGES.codeLength),
  kind: z.enum(["percent", "amount"]),
  value: z.union([z.string().max(50), z.number()]),
  appliesTo: z.enum(["all", "chosen"]),
  productIds: z.array(z.string().min(1).max(64)).max(1000).optional(),
  startsAt: z.string().max(64).nullish(),
  endsAt: z.string().max(64).nullish(),
  maxUses: z.union([z.string().max(20), z.number()]).nullish(),
  /** On a membership: the first payment only (default), or every payment. */
  membershipDuration: z.enum(["once", "forever"]).optional(),
  /** An amount off's currency: the store's, which the server sets (what the form sends is ignored). */
  currency: z.string().max(3).optional(),
});
export type DiscountCodeFields = z.input<typeof discountCodeFieldsSchema>;

/** A timestamp with its offset, as the browser's toISOString() writes it; undefined when it is not one. */
function parseInstant(text: string): Date | undefined {
  if (!z.iso.datetime({ offset: true }).safeParse(text).success) return undefined;
  return new Date(text);
}

export const discountCodeInputSchema = discountCodeFieldsSchema.transform((input, ctx) => {
  const problem = (path: keyof DiscountCodeFields, message: string) =>
    ctx.addIssue({ code: "custom", message, path: [path] });

  const code = normalizeDiscountCode(input.code);
  if (code === "") problem("code", DISCOUNT_MESSAGES.codeRequired);
  else if (!CODE_CHARACTERS.test(code)) problem("code", DISCOUNT_MESSAGES.codeCharacters);
  else if (code.length < DISCOUNT_LIMITS.codeMinLength || code.length > DISCOUNT_LIMITS.codeMaxLength)
    problem("code", DISCOUNT_MESSAGES.codeLength);

  const valueText = String(input.value).trim();
  let value = 0;
  if (valueText === "") problem("value", DISCOUNT_MESSAGES.valueRequired);
  else if (input.kind === "percent") {
    value = WHOLE_NUMBER.test(valueText) ? Number(valueText) : 0;
    if (value < 1 || value > 100) problem("value", DISCOUNT_MESSAGES.percentInvalid);
  } else {
    value = parseMoney(valueText.replace(/^[$€£¥]/, ""), input.currency ?? "usd") ?? 0;
    if (value < 1) problem("value", DISCOUNT_MESSAGES.amountInvalid);
    else if (value > PRODUCT_LIMITS.maxPriceCents) problem("value", DISCOUNT_MESSAGES.amountTooHigh);
  }

  const productIds = [...new Set(input.productIds ?? [])];
  if (input.appliesTo === "chosen" && productIds.length === 0)
    problem("productIds", DISCOUNT_MESSAGES.productsRequired);
  if (input.appliesTo === "chosen" && productIds.length > DISCOUNT_LIMITS.maxChosenProducts)
    problem("productIds", DISCOUNT_MESSAGES.tooManyProducts);

  const startsAt = input.startsAt ? parseInstant(input.startsAt) : null;
  const endsAt = input.endsAt ? parseInstant(input.endsAt) : null;
  if (startsAt === undefined) problem("startsAt", DISCOUNT_MESSAGES.dateInvalid);
  if (endsAt === undefined) problem("endsAt", DISCOUNT_MESSAGES.dateInvalid);
  else if (endsAt && startsAt && endsAt <= startsAt) problem("endsAt", DISCOUNT_MESSAGES.endBeforeStart);

  const maxUsesText = String(input.maxUses ?? "").trim();
  const maxUses = maxUsesText === "" ? null : WHOLE_NUMBER.test(maxUsesText) ? Number(maxUsesText) : 0;
  if (maxUses !== null && (maxUses < 1 || maxUses > DISCOUNT_LIMITS.maxUses))
    problem("maxUses", DISCOUNT_MESSAGES.maxUsesInvalid);

  return {
    code,
    kind: input.kind,
    value,
    currency: input.kind === "amount" ? (input.currency ?? "usd") : null,
    /** Null: every product of the seller, now and later. */
    productIds: input.appliesTo === "all" ? null : productIds,
    startsAt: startsAt ?? null,
    endsAt: endsAt ?? null,
    maxUses,
    membershipDuration: input.membershipDuration ?? "once",
  };
});
export type DiscountCodeRule = z.output<typeof discountCodeInputSchema>;

/** PATCH: any of the form's fields (the rest stay as they are), and pause or resume. */
export const updateDiscountCodeSchema = discountCodeFieldsSchema
  .partial()
  .extend({ paused: z.boolean().optional() });
export type DiscountCodeUpdate = z.input<typeof updateDiscountCodeSchema>;

/** Where a code stands now, as its seller sees it. */
export const discountCodeStatusSchema = z.enum(["active", "paused", "scheduled", "expired", "used_up"]);
export type DiscountCodeStatus = z.infer<typeof discountCodeStatusSchema>;

export const discountCodeSchema = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(["percent", "amount"]),
  /** Percent off (1-100), or an amount off in minor units of `currency`. */
  value: z.number(),
  /** An amount off's currency (the store's when the code was made); null for a percentage, which applies in any. */
  currency: z.string().nullable(),
  allProducts: z.boolean(),
  /** The chosen products when allProducts is false. */
  productIds: z.array(z.string()),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  maxUses: z.number().nullable(),
  /** On a membership: the first payment only, or every payment. */
  membershipDuration: z.enum(["once", "forever"]),
  paused: z.boolean(),
  status: discountCodeStatusSchema,
  /** Paid orders that used the code (refunds included: the use happened). */
  uses: z.number(),
  /** Uses held by checkouts still open. */
  usesHeld: z.number(),
  /** What paid, not refunded orders with the code brought in. */
  revenueCents: z.number(),
  createdAt: z.string(),
});
export type DiscountCode = z.infer<typeof discountCodeSchema>;
export const discountCodeListSchema = z.object({ codes: z.array(discountCodeSchema) });

/** A product's price with a code, as the product page shows it (the server decides it again at checkout). */
export const productPriceSchema = z.object({
  productId: z.string(),
  originalPriceCents: z.number(),
  /** What the buyer pays: the original price when the code does not apply. */
  priceCents: z.number(),
  discountCents: z.number(),
  /** The code as applied (upper-case), or null when none was given. */
  code: z.string().nullable(),
  refusal: z.object({ reason: discountRefusalSchema, message: z.string() }).nullable(),
});
export type ProductPrice = z.infer<typeof productPriceSchema>;

export const productPriceQuerySchema = z.object({ code: z.string().max(200).optional() });

/** "20% off" or "$5.00 off". */
export const describeDiscount = (kind: "percent" | "amount", value: number) =>
  kind === "percent" ? `${value}% off` : `${formatPrice(value)} off`;

/** The link a seller shares: the product page with the code already entered. */
export const offerUrl = (appUrl: string, productId: string, code: string) =>
  `${appUrl}/product/${productId}?code=${encodeURIComponent(code)}`;
