import { z } from "zod";
import {
  CURRENCY_MESSAGES,
  type CurrencyPrice,
  type CurrencyPriceInput,
  checkOtherAmount,
  currencyPriceInputSchema,
  currencyPriceSchema,
  DEFAULT_STORE_CURRENCY,
  MAX_OTHER_PRICES,
  minimumChargeCents,
  otherCurrencyProblem,
} from "./currencies";
import {
  type CheckedTier,
  checkTiers,
  lowestMonthlyCents,
  MEMBERSHIP_MESSAGES,
  tierInputSchema,
  tierSchema,
} from "./memberships";
import { formatMoney, formatPrice, minorUnitDigits, parseMoney } from "./money";
import {
  checkFileList,
  type ProductFileEntry,
  productFileEntrySchema,
  sellerProductFileSchema,
} from "./product-files";
import { TAX_CATEGORIES, type TaxCategory } from "./tax";

export const PRODUCT_LIMITS = {
  titleMax: 200,
  descriptionMax: 5000,
  /** Stripe's smallest card charge in USD. */
  minPriceCents: 50,
  /** Stripe's largest card charge in USD. */
  maxPriceCents: 99_999_999,
  /** The most a buyer may pay for a pay-what-you-want product ($10,000), and so its minimum and suggestion. */
  maxFlexiblePriceCents: 1_000_000,
  maxQuantity: 1_000_000,
  recentProducts: 5,
  /** '{n} left' badge on store cards at this many or fewer. */
  lowStockBadgeAt: 5,
} as const;

export const PRODUCT_MESSAGES = {
  missingFieldsTitle: "Missing fields",
  missingFields: "Please fill in all required fields",
  createFailedTitle: "Failed to create product",
  createdTitle: "Product created!",
  created: "Your product is now live and ready for sale.",
  updateFailedTitle: "Failed to update",
  updatedTitle: "Product updated!",
  updated: "Your changes are live.",
  deletedTitle: "Product deleted",
  deleted: "Product has been removed successfully",
  deleteConfirmTitle: "Delete Product",
  deleteConfirm:
    "Are you sure you want to delete this product? This action cannot be undone. The product files will be permanently removed.",
  linkCopied: "Link copied!",
  storeLinkCopiedTitle: "Store link copied!",
  storeLinkCopied: "Share this link with your customers",
  invalidPrice: "Price must be a number with at most 2 decimals, like 19.99",
  priceTooLow: "Price must be $0 (free) or at least $0.50",
  priceTooHigh: "Price must be at most $999,999.99",
  minimumTooHigh: "Minimum price must be at most $10,000.00",
  suggestedMissing: "Enter a suggested price",
  suggestedTooLow: "Suggested price must be at least the minimum price",
  suggestedTooHigh: "Suggested price must be at most $10,000.00",
  quantityInvalid: "Available quantity must be a whole number of 0 or more",
  titleTooLong: `Title must be under ${PRODUCT_LIMITS.titleMax} characters`,
  descriptionTooLong: `Description must be under ${PRODUCT_LIMITS.descriptionMax} characters`,
  notFound: "Product not found",
  setupRequired: "Subscribe and connect Stripe before creating products.",
} as const;

/**
 * A limited product's total quantity below the units already taken from it: says how many were sold
 * and how many sit in open checkouts, so the seller sees the smallest number allowed and why.
 */
export function quantityBelowTakenMessage(sold: number, held: number): string {
  const reasons: string[] = [];
  if (sold > 0) reasons.push(`${sold} sold`);
  if (held > 0) reasons.push(`${held} in ${held === 1 ? "an open checkout" : "open checkouts"}`);
  return `Quantity can't be below ${sold + held}: ${reasons.join(" and ")}.`;
}

/** What a buyer is told about the amount they chose to pay, or a free product's claim. */
export const PAY_WHAT_YOU_WANT_MESSAGES = {
  amountInvalid: "Enter an amount in dollars, like 15 or 15.00.",
  amountTooHigh: "The most you can pay is $10,000.00.",
  /** Stripe charges no less than $0.50. */
  amountBelowCardMinimum: "Card payments start at $0.50: enter $0.50 or more, or $0 to get it free.",
  amountZero: "To get it for $0, use Email me the download below.",
  freeUseEmail: "This product is free: enter your email below to get the download.",
} as const;

/** "Email me the download": a product the buyer gets for $0 (free, or free with their code). */
export const freeClaimSchema = z.object({
  productId: z.string().min(1).max(64),
  email: z.string().trim().max(254, "Please enter a valid email").email("Please enter a valid email"),
  code: z.string().max(200).optional(),
});
export type FreeClaim = z.infer<typeof freeClaimSchema>;

export const FREE_CLAIM_MESSAGES = {
  checkEmailTitle: "Check your email",
  sent: (email: string) =>
    `We sent the download link for this product to ${email}. It can take a minute to arrive; check your spam folder too.`,
  tooMany: "Too many requests. Please try again in an hour.",
  notFree: "This product isn't free. Use Buy Now to pay for it.",
} as const;

export const amountBelowMinimumMessage = (minimumCents: number, currency = "usd") =>
  `Please pay at least ${currency === "usd" ? formatPrice(minimumCents) : formatMoney(minimumCents, currency)}.`;

/** The amount the invalid-amount refusal gives as an example: 15.00, or ¥1,500 where there are no decimals. */
export const amountExampleMinor = (currency: string): number =>
  minorUnitDigits(currency) === 0 ? 1500 : 15 * 10 ** minorUnitDigits(currency);

/**
 * The pay-what-you-want refusals for a price in `currency`: the dollar texts above for USD (the spec's),
 * the same words with the currency's own amounts for any other.
 */
export function payWhatYouWantMessages(currency: string): {
  amountInvalid: string;
  amountTooHigh: string;
  amountBelowCardMinimum: string;
} {
  if (currency === "usd") return PAY_WHAT_YOU_WANT_MESSAGES;
  const minimum = formatMoney(minimumChargeCents(currency), currency);
  return {
    amountInvalid: `Enter an amount in ${currency.toUpperCase()}, like ${formatMoney(amountExampleMinor(currency), currency)}.`,
    amountTooHigh: `The most you can pay is ${formatMoney(PRODUCT_LIMITS.maxFlexiblePriceCents, currency)}.`,
    amountBelowCardMinimum: `Card payments start at ${minimum}: enter ${minimum} or more, or 0 to get it free.`,
  };
}

/**
 * What a buyer pays, in cents, for a product whose price (after any code) is `minimumCents`: a fixed
 * price pays exactly that; a flexible one pays the typed amount, which must be at least the minimum,
 * at most $10,000 and, when not $0, at least Stripe's $0.50. A refusal says why. A decimal comma
 * ("15,50") is read as the pages in other languages invite it.
 */
export function checkBuyerAmount(
  product: { priceMode: "fixed" | "flexible" },
  minimumCents: number,
  typed: string | number | undefined,
  currency = "usd",
): { amountCents: number } | { problem: string } {
  if (product.priceMode === "fixed") return { amountCents: minimumCents };
  // "15,50" is how a buyer in Berlin or Paris writes 15.50 (a comma before one or two last digits);
  // any other comma groups thousands ("1,500").
  const text = String(typed ?? "")
    .trim()
    .replace(/^[$€£¥]/, "")
    .replace(/^(\d+),(\d{1,2})$/, "$1.$2")
    .replace(/,/g, "");
  const messages = payWhatYouWantMessages(currency);
  if (text === "") return { problem: messages.amountInvalid };
  const cents = parseMoney(text, currency);
  if (cents === undefined) return { problem: messages.amountInvalid };
  if (cents > PRODUCT_LIMITS.maxFlexiblePriceCents) return { problem: messages.amountTooHigh };
  if (cents < minimumCents) return { problem: amountBelowMinimumMessage(minimumCents, currency) };
  if (cents > 0 && cents < minimumChargeCents(currency)) return { problem: messages.amountBelowCardMinimum };
  return { amountCents: cents };
}

/** The price as pages show it: "Free", "$5.00+" for pay what you want, else "$19.99". */
export function priceLabel(product: {
  priceMode: "fixed" | "flexible";
  priceCents: number;
  currency?: string;
}): string {
  const currency = product.currency ?? "usd";
  const price =
    currency === "usd" ? formatPrice(product.priceCents) : formatMoney(product.priceCents, currency);
  if (product.priceMode === "flexible") return `${price}+`;
  return product.priceCents === 0 ? "Free" : price;
}

/** The form's fields as the API names them (the files and cover are checked uploads). */
export type ProductField =
  | "files"
  | "title"
  | "description"
  | "price"
  | "priceMode"
  | "suggestedPrice"
  | "inventoryType"
  | "quantityAvailable"
  | "fileUploadId"
  | "coverUploadId"
  | "tiers"
  | "prices";

const productFields = {
  title: z.string(),
  description: z.string(),
  /** The price, or a flexible price's minimum. */
  price: z.union([z.string(), z.number()]),
  /** fixed: the price; flexible: pay what you want, from `price` up, the field filled with `suggestedPrice`. */
  priceMode: z.enum(["fixed", "flexible"]),
  suggestedPrice: z.union([z.string(), z.number()]).nullish(),
  inventoryType: z.enum(["unlimited", "limited"]),
  /**
   * How many units the product sells in all: units already sold or held in an open checkout count
   * toward it (none are at creation, so there it is simply the number for sale).
   */
  quantityAvailable: z.union([z.string(), z.number()]).nullish(),
  /** Every delivered order gets a license key (contracts/licenses.ts); off when not sent on /new. */
  issueLicenseKeys: z.boolean().optional(),
  /** Each buyer's copy of the PDFs carries their email (contracts/pdf-stamps.ts); off when not sent on /new. */
  stampPdfs: z.boolean().optional(),
  /** What the product is for tax (contracts/tax.ts); null: decided from its files' types. */
  taxCategory: z.enum(TAX_CATEGORIES).nullish(),
  /** The product's files (product-files.ts): on /new uploads, on an edit the whole list in its order. */
  files: z.array(productFileEntrySchema).max(100),
  /** On /new only: one file, the same as `files: [{ uploadId }]`. */
  fileUploadId: z.string(),
  coverUploadId: z.string().min(1).nullish(),
  /** Fixed prices in other currencies (the buyer in that currency pays exactly that); the whole list. */
  prices: z.array(currencyPriceInputSchema).max(50),
};

type Checked<T> = { value: T } | { problem: string };
type CheckedValues<T> = { [K in keyof T]: NonNullable<T[K]> extends Checked<infer V> ? V : never };

function checkTitle(input: string): Checked<string> {
  const title = input.trim();
  if (title === "") return { problem: PRODUCT_MESSAGES.missingFields };
  if (title.length > PRODUCT_LIMITS.titleMax) return { problem: PRODUCT_MESSAGES.titleTooLong };
  return { value: title };
}

function checkDescription(input: string): Checked<string> {
  const description = input.trim();
  if (description.length > PRODUCT_LIMITS.descriptionMax) {
    return { problem: PRODUCT_MESSAGES.descriptionTooLong };
  }
  return { value: description };
}

/**
 * A price, or a flexible price's minimum: $0 (free) or from Stripe's $0.50 up (nothing in between can be
 * charged); a minimum is at most $10,000, what a buyer may pay.
 */
function checkPrice(
  input: string | number,
  mode: "fixed" | "flexible" = "fixed",
  currency: string = DEFAULT_STORE_CURRENCY,
): Checked<number> {
  const text = String(input).trim();
  if (text === "") return { problem: PRODUCT_MESSAGES.missingFields };
  const problems = priceProblems(currency);
  const cents = parseMoney(text, currency);
  if (cents === undefined) return { problem: problems.invalidPrice };
  if (cents > 0 && cents < minimumChargeCents(currency)) return { problem: problems.priceTooLow };
  if (mode === "flexible" && cents > PRODUCT_LIMITS.maxFlexiblePriceCents)
    return { problem: problems.minimumTooHigh };
  if (cents > PRODUCT_LIMITS.maxPriceCents) return { problem: problems.priceTooHigh };
  return { value: cents };
}

/**
 * A price's refusals in the store's currency: the US-dollar texts are the product rules' own; other
 * currencies say the same with their amounts (the limits are the same numbers of minor units).
 */
export function priceProblems(currency: string) {
  if (currency === "usd") return PRODUCT_MESSAGES;
  const money = (amount: number) => formatMoney(amount, currency);
  return {
    invalidPrice: CURRENCY_MESSAGES.invalidPrice(currency),
    priceTooLow: `Price must be 0 (free) or at least ${money(minimumChargeCents(currency))}`,
    priceTooHigh: `Price must be at most ${money(PRODUCT_LIMITS.maxPriceCents)}`,
    minimumTooHigh: `Minimum price must be at most ${money(PRODUCT_LIMITS.maxFlexiblePriceCents)}`,
    suggestedTooHigh: `Suggested price must be at most ${money(PRODUCT_LIMITS.maxFlexiblePriceCents)}`,
  };
}

/**
 * A product's fixed prices in currencies other than the store's: each a currency we know, once, not the
 * store's, and at least Stripe's smallest charge there (a pay-what-you-want product's minimum there).
 * Whether the seller's Stripe account takes the currency is the server's to check (it asks Stripe).
 */
function checkOtherPrices(inputs: CurrencyPriceInput[], storeCurrency: string): Checked<CurrencyPrice[]> {
  if (inputs.length > MAX_OTHER_PRICES) return { problem: CURRENCY_MESSAGES.tooManyPrices };
  const prices: CurrencyPrice[] = [];
  for (const input of inputs) {
    const { currency } = currencyPriceInputSchema.parse(input);
    const taken = prices.map((price) => price.currency);
    const problem = otherCurrencyProblem(currency, storeCurrency, taken);
    if (problem) return { problem };
    const amount = checkOtherAmount(input.price, currency, PRODUCT_LIMITS.maxPriceCents);
    if ("problem" in amount) return amount;
    prices.push({ currency, priceCents: amount.value });
  }
  return { value: prices };
}

/** A flexible price's suggestion: at least the minimum, at most $10,000, and a chargeable amount. */
function checkSuggestedPrice(
  input: string | number | null | undefined,
  minimum: Checked<number>,
  currency: string,
): Checked<number> {
  const text = String(input ?? "").trim();
  if (text === "") return { problem: PRODUCT_MESSAGES.suggestedMissing };
  const problems = priceProblems(currency);
  const cents = parseMoney(text, currency);
  if (cents === undefined) return { problem: problems.invalidPrice };
  if (cents > PRODUCT_LIMITS.maxFlexiblePriceCents) return { problem: problems.suggestedTooHigh };
  if (cents > 0 && cents < minimumChargeCents(currency)) return { problem: problems.priceTooLow };
  if ("value" in minimum && cents < minimum.value) return { problem: PRODUCT_MESSAGES.suggestedTooLow };
  return { value: cents };
}

/** The pricing fields as one: a fixed price has no suggestion. */
function checkPricing(
  mode: "fixed" | "flexible",
  price: string | number,
  suggested: string | number | null | undefined,
  currency: string,
): { price: Checked<number>; suggestedPrice: Checked<number | null> } {
  const checked = checkPrice(price, mode, currency);
  return {
    price: checked,
    suggestedPrice: mode === "flexible" ? checkSuggestedPrice(suggested, checked, currency) : { value: null },
  };
}

/** Quantity is required (a whole number, 0 or more) when limited and dropped when unlimited. */
function checkQuantity(
  inventoryType: "unlimited" | "limited",
  input: string | number | null | undefined,
): Checked<number | null> {
  if (inventoryType === "unlimited") return { value: null };
  const text = String(input ?? "").trim();
  if (text === "") return { problem: PRODUCT_MESSAGES.missingFields };
  if (!/^\d+$/.test(text) || Number(text) > PRODUCT_LIMITS.maxQuantity) {
    return { problem: PRODUCT_MESSAGES.quantityInvalid };
  }
  return { value: Number(text) };
}

/** /new's files: the list, or the one `fileUploadId`; none at all is a missing field. */
function checkNewFiles(files: ProductFileEntry[] | undefined, fileUploadId: string | undefined) {
  const entries = files ?? (fileUploadId?.trim() ? [{ uploadId: fileUploadId }] : []);
  if (entries.length === 0) return { problem: PRODUCT_MESSAGES.missingFields };
  return checkFileList(entries, { editing: false });
}

/**
 * Runs each field's check and reports every problem at once, each on its own field (so a form can
 * show all of them, and the API answers the first). Undefined when any field failed.
 */
function collect<T extends Partial<Record<ProductField, Checked<unknown>>>>(
  checks: T,
  ctx: z.RefinementCtx,
): CheckedValues<T> | undefined {
  const values: Record<string, unknown> = {};
  let failed = false;
  for (const [field, checked] of Object.entries(checks) as [ProductField, Checked<unknown>][]) {
    if ("problem" in checked) {
      ctx.addIssue({ code: "custom", message: checked.problem, path: [field] });
      failed = true;
    } else {
      values[field] = checked.value;
    }
  }
  return failed ? undefined : (values as CheckedValues<T>);
}

/** A checked quantity as the inventory it sets: none means unlimited. */
const inventoryOf = (
  quantity: number | null | undefined,
): { inventoryType: "unlimited" } | { inventoryType: "limited"; quantity: number } =>
  quantity == null ? { inventoryType: "unlimited" } : { inventoryType: "limited", quantity };

/** A new product as the use case takes it; a membership's price is its lowest monthly tier price. */
interface NewProductOutput {
  title: string;
  description: string;
  priceCents: number;
  priceMode: "fixed" | "flexible";
  suggestedPriceCents: number | null;
  inventoryType: "unlimited" | "limited";
  quantityAvailable: number | null;
  files: ProductFileEntry[];
  coverUploadId: string | null;
  issueLicenseKeys: boolean;
  stampPdfs: boolean;
  taxCategory: TaxCategory | null;
  kind: "one_time" | "membership";
  /** A membership's tiers (contracts/memberships.ts); none for a one-time product. */
  tiers: CheckedTier[];
  /** Fixed prices in other currencies than the store's. */
  prices: CurrencyPrice[];
}

/**
 * A new membership: title, description and files as any product; tiers instead of a price and stock
 * (unlimited, fixed: pay what you want does not apply), and no license keys (product rules, "Memberships").
 */
function newMembershipProduct(
  input: {
    title: string;
    description: string;
    priceMode: "fixed" | "flexible";
    files?: ProductFileEntry[];
    fileUploadId?: string;
    tiers?: z.output<typeof tierInputSchema>[];
    coverUploadId?: string | null;
    stampPdfs?: boolean;
    taxCategory?: TaxCategory | null | undefined;
  },
  ctx: z.RefinementCtx,
  currency: string,
): NewProductOutput {
  if (input.priceMode === "flexible") {
    ctx.addIssue({ code: "custom", message: MEMBERSHIP_MESSAGES.noPayWhatYouWant, path: ["priceMode"] });
    return z.NEVER;
  }
  const tiers = checkTiers(input.tiers ?? [], currency);
  const checked = collect(
    {
      title: checkTitle(input.title),
      description: checkDescription(input.description),
      files: checkNewFiles(input.files, input.fileUploadId),
    },
    ctx,
  );
  if ("problem" in tiers) ctx.addIssue({ code: "custom", message: tiers.problem, path: ["tiers"] });
  if (!checked || "problem" in tiers) return z.NEVER;
  return {
    title: checked.title,
    description: checked.description,
    priceCents: lowestMonthlyCents(tiers.value),
    priceMode: "fixed",
    suggestedPriceCents: null,
    inventoryType: "unlimited",
    quantityAvailable: null,
    files: checked.files,
    coverUploadId: input.coverUploadId ?? null,
    issueLicenseKeys: false,
    stampPdfs: input.stampPdfs ?? false,
    taxCategory: input.taxCategory ?? null,
    kind: "membership",
    tiers: tiers.value,
    prices: [],
  };
}

/** The body of a new product as sent, before its checks (which need the store currency: productSchemas). */
export const createProductBodySchema = z.object({
  ...productFields,
  description: productFields.description.default(""),
  priceMode: productFields.priceMode.default("fixed"),
  files: productFields.files.optional(),
  fileUploadId: productFields.fileUploadId.optional(),
  /** Sold once (the default), or as a membership with `tiers` instead of a price and inventory. */
  kind: z.enum(["one_time", "membership"]).default("one_time"),
  tiers: z.array(tierInputSchema).max(20).optional(),
  price: productFields.price.optional(),
  inventoryType: productFields.inventoryType.optional(),
  prices: productFields.prices.optional(),
});

const newProductSchema = (currency: string) =>
  createProductBodySchema.transform((input, ctx): NewProductOutput => {
    if (input.kind === "membership") return newMembershipProduct(input, ctx, currency);
    if (input.price === undefined || input.inventoryType === undefined) {
      const field = input.price === undefined ? "price" : "inventoryType";
      ctx.addIssue({ code: "custom", message: PRODUCT_MESSAGES.missingFields, path: [field] });
      return z.NEVER;
    }
    const checked = collect(
      {
        title: checkTitle(input.title),
        description: checkDescription(input.description),
        ...checkPricing(input.priceMode, input.price, input.suggestedPrice, currency),
        quantityAvailable: checkQuantity(input.inventoryType, input.quantityAvailable),
        files: checkNewFiles(input.files, input.fileUploadId),
        prices: checkOtherPrices(input.prices ?? [], currency),
      },
      ctx,
    );
    if (!checked) return z.NEVER;
    return {
      title: checked.title,
      description: checked.description,
      priceCents: checked.price,
      priceMode: input.priceMode,
      suggestedPriceCents: checked.suggestedPrice,
      inventoryType: input.inventoryType,
      quantityAvailable: checked.quantityAvailable,
      files: checked.files,
      coverUploadId: input.coverUploadId ?? null,
      issueLicenseKeys: input.issueLicenseKeys ?? false,
      stampPdfs: input.stampPdfs ?? false,
      taxCategory: input.taxCategory ?? null,
      kind: "one_time",
      tiers: [],
      prices: checked.prices,
    };
  });
export type CreateProductInput = z.input<typeof createProductBodySchema>;
export type NewProduct = NewProductOutput;

/**
 * An edit: the create fields, each optional (absent = unchanged), with the same checks and messages.
 * Inventory changes as a pair (the quantity means nothing without its type); `coverUploadId: null`
 * removes the cover. Pricing changes as a whole when `priceMode` is sent (price and, when flexible,
 * suggestedPrice with it); a price alone keeps the mode, and the use case checks it against it.
 */
/** An edit's pricing checks: none, a price alone (the mode unchanged), or the whole pricing. */
function pricingChecks(
  input: {
    price?: string | number;
    priceMode?: "fixed" | "flexible";
    suggestedPrice?: string | number | null;
  },
  currency: string,
): { price?: Checked<number>; suggestedPrice?: Checked<number | null> } {
  if (input.price === undefined) return {};
  if (input.priceMode === undefined) return { price: checkPrice(input.price, "fixed", currency) };
  return checkPricing(input.priceMode, input.price, input.suggestedPrice, currency);
}

/** The body of an edit as sent, before its checks (productSchemas). */
export const updateProductBodySchema = z
  .object({ ...productFields, tiers: z.array(tierInputSchema).max(20) })
  .omit({ fileUploadId: true })
  .partial();

const productChangesSchema = (currency: string) =>
  updateProductBodySchema.transform((input, ctx) => {
    if (input.quantityAvailable != null && input.inventoryType === undefined) {
      ctx.addIssue({ code: "custom", message: PRODUCT_MESSAGES.missingFields, path: ["inventoryType"] });
      return z.NEVER;
    }
    if (input.priceMode !== undefined && input.price === undefined) {
      ctx.addIssue({ code: "custom", message: PRODUCT_MESSAGES.missingFields, path: ["price"] });
      return z.NEVER;
    }
    const checked = collect(
      {
        ...(input.title !== undefined ? { title: checkTitle(input.title) } : {}),
        ...(input.description !== undefined ? { description: checkDescription(input.description) } : {}),
        ...pricingChecks(input, currency),
        ...(input.inventoryType !== undefined
          ? { quantityAvailable: checkQuantity(input.inventoryType, input.quantityAvailable) }
          : {}),
        ...(input.files !== undefined ? { files: checkFileList(input.files, { editing: true }) } : {}),
        ...(input.tiers !== undefined ? { tiers: checkTiers(input.tiers, currency) } : {}),
        ...(input.prices !== undefined ? { prices: checkOtherPrices(input.prices, currency) } : {}),
      },
      ctx,
    );
    if (!checked) return z.NEVER;
    return {
      title: checked.title,
      description: checked.description,
      priceCents: checked.price,
      pricing:
        input.priceMode === undefined
          ? undefined
          : { mode: input.priceMode, suggestedPriceCents: checked.suggestedPrice ?? null },
      inventory: input.inventoryType === undefined ? undefined : inventoryOf(checked.quantityAvailable),
      files: checked.files,
      coverUploadId: input.coverUploadId,
      issueLicenseKeys: input.issueLicenseKeys,
      stampPdfs: input.stampPdfs,
      taxCategory: input.taxCategory,
      /** A membership's whole tier list (the use case refuses it for a one-time product). */
      tiers: checked.tiers,
      /** The whole list of other-currency prices (absent: unchanged). */
      prices: checked.prices,
    };
  });
export type UpdateProductInput = z.input<typeof updateProductBodySchema>;
export type ProductChanges = z.output<ReturnType<typeof productChangesSchema>>;

const schemasByCurrency = new Map<
  string,
  { create: ReturnType<typeof newProductSchema>; update: ReturnType<typeof productChangesSchema> }
>();

/**
 * The checks of a new product and of an edit, for a store selling in `currency` (prices are amounts
 * of it: "1500" is ¥1,500 in a yen store, $15.00 in a dollar store). Made once per currency.
 */
export function productSchemas(currency: string) {
  let schemas = schemasByCurrency.get(currency);
  if (!schemas) {
    schemas = { create: newProductSchema(currency), update: productChangesSchema(currency) };
    schemasByCurrency.set(currency, schemas);
  }
  return schemas;
}

/**
 * A cover as an `<img>` wants it: `src` and `width`/`height` are its largest size (the size fixes the
 * box before the image loads, so nothing shifts), `srcSet` offers every size for the browser to choose.
 */
export const coverImageSchema = z.object({
  src: z.string(),
  srcSet: z.string(),
  width: z.number(),
  height: z.number(),
  alt: z.string(),
});
export type CoverImage = z.infer<typeof coverImageSchema>;

/** What the seller and the public both see of a product. */
const productCoreSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** The price; a flexible price's minimum. 0 with a fixed price: a free product. */
  priceCents: z.number(),
  priceMode: z.enum(["fixed", "flexible"]),
  /** A flexible price's suggestion; null when fixed. */
  suggestedPriceCents: z.number().nullable(),
  inventoryType: z.enum(["unlimited", "limited"]),
  quantityAvailable: z.number().nullable(),
  /** The first file's size and type (the product rules' file_size_bytes, file_type). */
  fileSizeBytes: z.number().nullable(),
  fileType: z.string().nullable(),
  /** How many files a buyer gets. */
  fileCount: z.number(),
  coverImageUrl: z.string().nullable(),
  coverThumbnailUrl: z.string().nullable(),
  /** Null when the product has no cover (pages show a placeholder). */
  cover: coverImageSchema.nullable(),
  createdAt: z.string(),
  /** Sold once, or a membership: then priceCents is its lowest monthly price and `tiers` says the rest. */
  kind: z.enum(["one_time", "membership"]),
  /** A membership's tiers, in order (the public sees those open to new members); empty otherwise. */
  tiers: z.array(tierSchema),
  /** The store currency, which priceCents, the suggestion and the tiers' prices are amounts of. */
  currency: z.string(),
  /** Fixed prices in other currencies (docs/money.md), by currency code. */
  prices: z.array(currencyPriceSchema),
});

export const sellerProductSchema = productCoreSchema.extend({
  isActive: z.boolean(),
  fileName: z.string(),
  issueLicenseKeys: z.boolean(),
  stampPdfs: z.boolean(),
  /** The seller's tax category, or null: decided from the files (`effectiveTaxCategory` says which). */
  taxCategory: z.enum(TAX_CATEGORIES).nullable(),
});
export type SellerProduct = z.infer<typeof sellerProductSchema>;
/**
 * One product as its edit page needs it: with the units taken from a limited stock, which its total
 * quantity can't go below (sold: paid for; held: in an open checkout).
 */
export const sellerProductDetailSchema = sellerProductSchema.extend({
  unitsSold: z.number(),
  unitsHeld: z.number(),
  /** Every file, in the order buyers see them. */
  files: z.array(sellerProductFileSchema),
});
export type SellerProductDetail = z.infer<typeof sellerProductDetailSchema>;
export const sellerProductListSchema = z.object({
  products: z.array(sellerProductSchema),
  total: z.number(),
});

export const sellerBlockSchema = z.object({
  id: z.string(),
  storeName: z.string().nullable(),
  pictureUrl: z.string().nullable(),
  /** Beside prices when the store collects tax ("+ tax", "incl. VAT where applicable"); null otherwise. */
  taxNote: z.string().nullable(),
});

/** What anyone may see of a product: no file location, no seller internals. */
export const publicProductSchema = productCoreSchema.extend({
  soldOut: z.boolean(),
  /** Buy Now works: the seller may sell and the product is not sold out. */
  purchasable: z.boolean(),
  /** Why Buy Now is off when it is, in words a buyer understands. */
  unavailableReason: z.string().nullable(),
  seller: sellerBlockSchema,
});
export type PublicProduct = z.infer<typeof publicProductSchema>;

export const storefrontSchema = z.object({
  seller: sellerBlockSchema.extend({ tagline: z.string().nullable(), description: z.string().nullable() }),
  products: z.array(publicProductSchema.omit({ seller: true })),
});
export type Storefront = z.infer<typeof storefrontSchema>;

export const STORE_FALLBACK_NAME = "Digital Store";
export const PURCHASE_UNAVAILABLE = {
  soldOut: "Sold Out",
  sellerPaused: "This creator isn't accepting purchases right now. Check back soon.",
} as const;

export const dashboardStatsSchema = z.object({
  activeProducts: z.number(),
  totalProducts: z.number(),
  storeViews30d: z.number(),
  storeViewsAllTime: z.number(),
  storageUsedBytes: z.number(),
  storageQuotaBytes: z.number(),
  /** Completed orders (refunded ones are taken back). */
  unitsSold: z.number(),
  totalRevenueCents: z.number(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;
