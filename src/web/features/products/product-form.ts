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

export type ProductFormValues = {
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
};

/** The fields a message can be shown next to: the typed ones, the file and the cover. */
export type ProductFormField =
  | Exclude<keyof ProductFormValues, "inventoryType" | "flexiblePrice" | "issueLicenseKeys" | "stampPdfs">
  | "file"
  | "cover";

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
};

/** Next to a missing field; the toast says which ones. */
export const FIELD_REQUIRED = "This field is required";

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  title: "",
  description: "",
  price: "",
  flexiblePrice: false,
  suggestedPrice: "",
  inventoryType: "unlimited",
  quantityAvailable: "",
  issueLicenseKeys: false,
  stampPdfs: false,
};

/** An existing product as the edit form shows it: a limited quantity is the total, units taken included. */
export function productFormValues(product: SellerProductDetail): ProductFormValues {
  const limited = product.inventoryType === "limited";
  return {
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

export function toCreateProductInput(
  values: ProductFormValues,
  files: ProductFileEntry[],
  coverUploadId: string | null,
): CreateProductInput {
  return {
    title: values.title,
    description: values.description,
    ...pricingInput(values),
    inventoryType: values.inventoryType,
    quantityAvailable: values.inventoryType === "limited" ? values.quantityAvailable : null,
    issueLicenseKeys: values.issueLicenseKeys,
    stampPdfs: values.stampPdfs,
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
 */
export function toUpdateProductInput(
  values: ProductFormValues,
  changed: Partial<Record<keyof ProductFormValues, unknown>>,
  uploads: { files?: ProductFileEntry[]; coverUploadId?: string | null },
): UpdateProductInput {
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
    ...uploads,
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
    default:
      return undefined;
  }
}

/**
 * What stops the form from being saved, checked before any byte is uploaded with the server's own
 * schema, every problem on its field. Missing title, price, file (or quantity when limited): 'Missing
 * fields', naming them; else the first rule's message under `failedTitle`.
 */
export function productFormProblem(
  values: ProductFormValues,
  { hasFile, failedTitle }: { hasFile: boolean; failedTitle: string },
): ProductFormProblem | undefined {
  const files = hasFile ? [{ uploadId: "pending" }] : [];
  const parsed = createProductSchema.safeParse(toCreateProductInput(values, files, null));
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
