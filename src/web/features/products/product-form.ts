import { MEMBERSHIP_MESSAGES, type TierInput } from "../../../contracts/memberships";
import { centsToDecimal } from "../../../contracts/money";
import type { ProductFileEntry } from "../../../contracts/product-files";
import {
  type CreateProductInput,
  createProductSchema,
  PRODUCT_MESSAGES,
  type ProductField,
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
  | "tiers";

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

/** An existing product as the edit form shows it: a limited quantity is the total, units taken included. */
export function productFormValues(product: SellerProductDetail): ProductFormValues {
  const limited = product.inventoryType === "limited";
  return {
    kind: product.kind,
    title: product.title,
    description: product.description,
    price: centsToDecimal(product.priceCents),
    flexiblePrice: product.priceMode === "flexible",
    suggestedPrice: product.suggestedPriceCents === null ? "" : centsToDecimal(product.suggestedPriceCents),
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
 * /new's request body. A membership sends its tiers (tier-form.ts `tierInputs`) instead of a price,
 * stock and license keys, which do not apply to it.
 */
export function toCreateProductInput(
  values: ProductFormValues,
  files: ProductFileEntry[],
  coverUploadId: string | null,
  tiers: TierInput[] = [],
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
 * keys are never sent (the server refuses them for a membership).
 */
export function toUpdateProductInput(
  values: ProductFormValues,
  changed: Partial<Record<keyof ProductFormValues, unknown>>,
  uploads: { files?: ProductFileEntry[]; coverUploadId?: string | null; tiers?: TierInput[] },
): UpdateProductInput {
  if (values.kind === "membership") {
    return {
      ...(changed.title ? { title: values.title } : {}),
      ...(changed.description ? { description: values.description } : {}),
      ...(changed.stampPdfs ? { stampPdfs: values.stampPdfs } : {}),
      ...(changed.taxCategory ? { taxCategory: values.taxCategory || null } : {}),
      ...uploads,
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
 * schema, every problem on its field. Missing title, price, file (or quantity when limited): 'Missing
 * fields', naming them; else the first rule's message under `failedTitle`.
 */
export function productFormProblem(
  values: ProductFormValues,
  {
    hasFile,
    failedTitle,
    tiers,
  }: {
    hasFile: boolean;
    failedTitle: string;
    /** A membership's tiers, files given by placeholder uploads (tier-form.ts `pendingTierInputs`). */
    tiers?: TierInput[];
  },
): ProductFormProblem | undefined {
  const files = hasFile ? [{ uploadId: "pending" }] : [];
  const parsed = createProductSchema.safeParse(toCreateProductInput(values, files, null, tiers));
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
