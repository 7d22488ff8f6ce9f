import {
  BUYER_CURRENCIES,
  CURRENCY_MESSAGES,
  type CurrencyPriceInput,
  MAX_OTHER_PRICES,
  STORE_CURRENCIES,
} from "../../../contracts/currencies";
import { MEMBERSHIP_MESSAGES, type TierInput } from "../../../contracts/memberships";
import { minorToDecimal } from "../../../contracts/money";
import type { ProductFileEntry } from "../../../contracts/product-files";
import {
  type CreateProductInput,
  PRODUCT_MESSAGES,
  type ProductField,
  productSchemas,
  type SellerProductDetail,
  type UpdateProductInput,
} from "../../../contracts/products";
import type { TaxCategory } from "../../../contracts/tax";

export type ProductFormValues = {
  /** Sold once, or a membership (chosen on /new only: a product stays what it was created as). */
  kind: "one_time" | "membership";
  title: string;
  description: string;
  /** The price, or the minimum when buyers pay what they want. */
  price: string;
  /** "Let buyers pay what they want": a minimum (`price`) and a suggested price. */
  flexiblePrice: boolean;
  suggestedPrice: string;
  inventoryType: "unlimited" | "limited";
  quantityAvailable: string;
  /** Every delivered order gets a license key. */
  issueLicenseKeys: boolean;
  /** Each buyer's copy of the PDFs carries their email (stamp-pdfs-field.tsx). */
  stampPdfs: boolean;
  /** What the product is for tax; "" is automatic (from the files). */
  taxCategory: "" | TaxCategory;
};

/** The fields a message can be shown next to: the typed ones, the file, the cover and a membership's tiers. */
export type ProductFormField =
  | Exclude<
      keyof ProductFormValues,
      "kind" | "inventoryType" | "flexiblePrice" | "issueLicenseKeys" | "stampPdfs" | "taxCategory"
    >
  | "file"
  | "cover"
  | "tiers"
  | "prices";

export type ProductFieldErrors = Partial<Record<ProductFormField, string>>;

/** What stops a save: the toast (the spec's title and message) and each field's own message. */
export type ProductFormProblem = { title: string; message: string; errors: ProductFieldErrors };

/** How the toast names a missing field. */
const FIELD_NAMES: Record<ProductFormField, string> = {
  title: "Product Title",
  description: "Description",
  price: "Price",
  suggestedPrice: "Suggested Price",
  quantityAvailable: "Quantity",
  file: "Digital File",
  cover: "Cover Image",
  tiers: "Tiers",
  prices: "Prices in other currencies",
};

/** Next to a missing field; the toast says which ones. */
export const FIELD_REQUIRED = "This field is required";

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  kind: "one_time",
  title: "",
  description: "",
  price: "",
  flexiblePrice: false,
  suggestedPrice: "",
  inventoryType: "unlimited",
  quantityAvailable: "",
  issueLicenseKeys: false,
  stampPdfs: false,
  taxCategory: "",
};

/**
 * An existing product as the edit form shows it: prices as plain decimals of the product's currency
 * ("19.50" for USD, "1500" for JPY), a limited quantity as the total, units taken included.
 */
export function productFormValues(product: SellerProductDetail): ProductFormValues {
  const limited = product.inventoryType === "limited";
  const decimal = (amount: number) => minorToDecimal(amount, product.currency);
  return {
    kind: product.kind,
    title: product.title,
    description: product.description,
    price: decimal(product.priceCents),
    flexiblePrice: product.priceMode === "flexible",
    suggestedPrice: product.suggestedPriceCents === null ? "" : decimal(product.suggestedPriceCents),
    inventoryType: product.inventoryType,
    quantityAvailable: limited
      ? String((product.quantityAvailable ?? 0) + product.unitsSold + product.unitsHeld)
      : "",
    issueLicenseKeys: product.issueLicenseKeys,
    stampPdfs: product.stampPdfs,
    taxCategory: product.taxCategory ?? "",
  };
}

/**
 * Under the edit page's Total Quantity: what counts toward it (units sold, units in open checkouts)
 * and what is left. Units sold while the product was unlimited never came out of a stock.
 */
export function stockHint(product: SellerProductDetail): string | undefined {
  const taken = product.unitsSold + product.unitsHeld;
  if (product.inventoryType !== "limited") {
    return taken > 0 ? `Counts the ${taken} sold or in checkout while it was limited.` : undefined;
  }
  const parts = [`${product.unitsSold} sold`];
  const held = product.unitsHeld;
  if (held > 0) parts.push(`${held} in ${held === 1 ? "an open checkout" : "open checkouts"}`);
  parts.push(`${product.quantityAvailable ?? 0} left to sell`);
  return `Counts every unit: ${parts.join(", ")}.`;
}

/**
 * One row of "Prices in other currencies": a currency and the amount typed for it (a membership tier's
 * monthly amount, with its yearly one in `yearly`).
 */
export type OtherPriceRow = { key: string; currency: string; price: string; yearly?: string };

let nextRowKey = 0;
export const newRowKey = () => `price-${++nextRowKey}`;

/** A saved product's fixed prices in other currencies as the edit form shows them ("18.00" EUR, "2500" JPY). */
export function otherPriceRows(product: Pick<SellerProductDetail, "prices"> | undefined): OtherPriceRow[] {
  return (product?.prices ?? []).map((price) => ({
    key: newRowKey(),
    currency: price.currency,
    price: minorToDecimal(price.priceCents, price.currency),
  }));
}

/**
 * The currencies a new row may be in: the store currency settings' choices, without the store currency
 * and those the other rows already have; in the choices' order.
 */
export function freeCurrencies(
  choices: ReadonlyArray<{ code: string }>,
  storeCurrency: string,
  rows: ReadonlyArray<Pick<OtherPriceRow, "currency">>,
): string[] {
  // Only currencies buyers' pages can be shown in (the server refuses others), the usual nine first.
  const rank = (code: string) => {
    const usual = (STORE_CURRENCIES as readonly string[]).indexOf(code);
    return usual === -1 ? STORE_CURRENCIES.length : usual;
  };
  return choices
    .map((choice) => choice.code)
    .filter((code) => BUYER_CURRENCIES.has(code))
    .filter((code) => code !== storeCurrency && !rows.some((row) => row.currency === code))
    .sort((a, b) => rank(a) - rank(b));
}

/** "Add a price in another currency": a row in the first currency not taken yet; none when full or none is left. */
export function addOtherPrice(
  rows: OtherPriceRow[],
  choices: ReadonlyArray<{ code: string }>,
  storeCurrency: string,
): OtherPriceRow[] {
  const currency = freeCurrencies(choices, storeCurrency, rows)[0];
  if (!currency || rows.length >= MAX_OTHER_PRICES) return rows;
  return [...rows, { key: newRowKey(), currency, price: "", yearly: "" }];
}

/** The rows as the API takes them (`prices`, the whole list): each currency and its amount as typed. */
export const otherPriceInputs = (rows: OtherPriceRow[]): CurrencyPriceInput[] =>
  rows.map((row) => ({ currency: row.currency, price: row.price.trim() }));

/**
 * The row a message about the prices is about (the contract's words name the currency): the second of
 * two rows in one currency, else the first row that is refused alone with this message. Undefined when
 * the message is about the whole list (too many, the store currency not the one Stripe pays out in).
 */
export function otherPriceProblemIndex(
  rows: OtherPriceRow[],
  message: string,
  storeCurrency: string,
): number | undefined {
  const duplicate = rows.findIndex(
    (row, index) =>
      message === CURRENCY_MESSAGES.duplicatePrice(row.currency) &&
      rows.slice(0, index).some((before) => before.currency === row.currency),
  );
  if (duplicate >= 0) return duplicate;
  const { update } = productSchemas(storeCurrency);
  const index = rows.findIndex((row) => {
    const alone = update.safeParse({ prices: otherPriceInputs([row]) });
    return !alone.success && alone.error.issues.some((issue) => issue.message === message);
  });
  if (index >= 0) return index;
  // The server's own refusal of a currency the seller's Stripe account can't take.
  const unsupported = rows.findIndex((row) => message === CURRENCY_MESSAGES.unsupported(row.currency));
  return unsupported >= 0 ? unsupported : undefined;
}

/**
 * /new's request body. A membership sends its tiers (tier-form.ts `tierInputs`) instead of a price,
 * stock and license keys, which do not apply to it.
 */
export function toCreateProductInput(
  values: ProductFormValues,
  files: ProductFileEntry[],
  coverUploadId: string | null,
  tiers: TierInput[] = [],
  prices: CurrencyPriceInput[] = [],
): CreateProductInput {
  if (values.kind === "membership") {
    return {
      kind: "membership",
      title: values.title,
      description: values.description,
      tiers,
      stampPdfs: values.stampPdfs,
      taxCategory: values.taxCategory || null,
      files,
      coverUploadId,
    };
  }
  return {
    title: values.title,
    description: values.description,
    ...pricingInput(values),
    inventoryType: values.inventoryType,
    quantityAvailable: values.inventoryType === "limited" ? values.quantityAvailable : null,
    issueLicenseKeys: values.issueLicenseKeys,
    stampPdfs: values.stampPdfs,
    taxCategory: values.taxCategory || null,
    files,
    coverUploadId,
    ...(prices.length > 0 ? { prices } : {}),
  };
}

/** The pricing fields as the API takes them: a flexible price sends its minimum and suggestion. */
function pricingInput(values: ProductFormValues) {
  return values.flexiblePrice
    ? { price: values.price, priceMode: "flexible" as const, suggestedPrice: values.suggestedPrice }
    : { price: values.price, priceMode: "fixed" as const };
}

/**
 * An edit sends only what the seller changed (a checkout taking a unit meanwhile is then never undone
 * by an untouched form). Inventory goes as a pair, pricing as a whole. `coverUploadId: null` removes the cover.
 * A membership's tiers go as the whole list (each kept tier with its id); its price, stock and license
 * keys are never sent (the server refuses them for a membership). Prices in other currencies go as the
 * whole list when they changed, for a one-time product only.
 */
export function toUpdateProductInput(
  values: ProductFormValues,
  changed: Partial<Record<keyof ProductFormValues, unknown>>,
  uploads: {
    files?: ProductFileEntry[];
    coverUploadId?: string | null;
    tiers?: TierInput[];
    prices?: CurrencyPriceInput[];
  },
): UpdateProductInput {
  if (values.kind === "membership") {
    const { prices: _notForMemberships, ...membershipUploads } = uploads;
    return {
      ...(changed.title ? { title: values.title } : {}),
      ...(changed.description ? { description: values.description } : {}),
      ...(changed.stampPdfs ? { stampPdfs: values.stampPdfs } : {}),
      ...(changed.taxCategory ? { taxCategory: values.taxCategory || null } : {}),
      ...membershipUploads,
    };
  }
  const { tiers: _notForOneTime, ...oneTimeUploads } = uploads;
  const inventoryChanged = Boolean(changed.inventoryType || changed.quantityAvailable);
  return {
    ...(changed.title ? { title: values.title } : {}),
    ...(changed.description ? { description: values.description } : {}),
    ...(changed.price || changed.flexiblePrice || changed.suggestedPrice ? pricingInput(values) : {}),
    ...(inventoryChanged
      ? {
          inventoryType: values.inventoryType,
          quantityAvailable: values.inventoryType === "limited" ? values.quantityAvailable : null,
        }
      : {}),
    ...(changed.issueLicenseKeys ? { issueLicenseKeys: values.issueLicenseKeys } : {}),
    ...(changed.stampPdfs ? { stampPdfs: values.stampPdfs } : {}),
    ...(changed.taxCategory ? { taxCategory: values.taxCategory || null } : {}),
    ...oneTimeUploads,
  };
}

/** The form field an API field (an issue's path, an error's `details.field`) is about. */
export function formFieldOf(apiField: unknown): ProductFormField | undefined {
  switch (apiField as ProductField) {
    case "title":
    case "description":
    case "price":
    case "suggestedPrice":
    case "quantityAvailable":
      return apiField as ProductFormField;
    case "priceMode":
      return "price";
    case "inventoryType":
      return "quantityAvailable";
    case "files":
    case "fileUploadId":
      return "file";
    case "coverUploadId":
      return "cover";
    case "tiers":
      return "tiers";
    case "prices":
      return "prices";
    default:
      return undefined;
  }
}

/** The server's messages about a membership's tier list (contracts/memberships.ts). */
const TIER_MESSAGES = new Set<string>([
  MEMBERSHIP_MESSAGES.tiersMissing,
  MEMBERSHIP_MESSAGES.tooManyTiers,
  MEMBERSHIP_MESSAGES.tierNameMissing,
  MEMBERSHIP_MESSAGES.tierNameTooLong,
  MEMBERSHIP_MESSAGES.tierNameTwice,
  MEMBERSHIP_MESSAGES.tierDescriptionTooLong,
  MEMBERSHIP_MESSAGES.monthlyPriceMissing,
  MEMBERSHIP_MESSAGES.priceInvalid,
  MEMBERSHIP_MESSAGES.priceTooLow,
  MEMBERSHIP_MESSAGES.priceTooHigh,
  MEMBERSHIP_MESSAGES.trialInvalid,
  MEMBERSHIP_MESSAGES.tierFileUnknown,
  MEMBERSHIP_MESSAGES.allTiersClosed,
  MEMBERSHIP_MESSAGES.unknownTier,
]);

/**
 * The form field a refused save is about: the error's `details.field`, else, for a tier message the
 * server's schema answered without a field, the tiers.
 */
export function formFieldOfError(apiField: unknown, message: string): ProductFormField | undefined {
  return formFieldOf(apiField) ?? (TIER_MESSAGES.has(message) ? "tiers" : undefined);
}

/**
 * What stops the form from being saved, checked before any byte is uploaded with the server's own
 * schema for the store currency (productSchemas), every problem on its field. Missing title, price,
 * file (or quantity when limited): 'Missing fields', naming them; else the first rule's message under
 * `failedTitle`.
 */
export function productFormProblem(
  values: ProductFormValues,
  {
    hasFile,
    failedTitle,
    currency,
    tiers,
    prices,
  }: {
    hasFile: boolean;
    failedTitle: string;
    /** The store currency: prices are amounts of it ("1500" is ¥1,500 in a yen store). */
    currency: string;
    /** A membership's tiers, files given by placeholder uploads (tier-form.ts `pendingTierInputs`). */
    tiers?: TierInput[];
    /** A one-time product's prices in other currencies (otherPriceInputs). */
    prices?: CurrencyPriceInput[];
  },
): ProductFormProblem | undefined {
  const files = hasFile ? [{ uploadId: "pending" }] : [];
  const parsed = productSchemas(currency).create.safeParse(
    toCreateProductInput(values, files, null, tiers, prices),
  );
  if (parsed.success) return undefined;
  const errors: ProductFieldErrors = {};
  const missing: ProductFormField[] = [];
  for (const issue of parsed.error.issues) {
    const field = formFieldOf(issue.path[0]) ?? "title";
    if (errors[field]) continue;
    const isMissing = issue.message === PRODUCT_MESSAGES.missingFields;
    errors[field] = isMissing ? FIELD_REQUIRED : issue.message;
    if (isMissing) missing.push(field);
  }
  if (missing.length > 0) {
    return {
      title: PRODUCT_MESSAGES.missingFieldsTitle,
      message: `${PRODUCT_MESSAGES.missingFields}: ${missing.map((field) => FIELD_NAMES[field]).join(", ")}`,
      errors,
    };
  }
  const first = Object.values(errors)[0] ?? PRODUCT_MESSAGES.missingFields;
  return { title: failedTitle, message: first, errors };
}
