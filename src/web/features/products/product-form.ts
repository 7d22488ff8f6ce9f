import { type CreateProductInput, createProductSchema, PRODUCT_MESSAGES } from "../../../contracts/products";

export type ProductFormValues = {
  title: string;
  description: string;
  price: string;
  inventoryType: "unlimited" | "limited";
  quantityAvailable: string;
};

export type ProductFormField = keyof ProductFormValues | "file";

export type ProductFormProblem = { field: ProductFormField; title: string; message: string };

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  title: "",
  description: "",
  price: "",
  inventoryType: "unlimited",
  quantityAvailable: "",
};

export function toCreateProductInput(
  values: ProductFormValues,
  fileUploadId: string,
  coverUploadId: string | null,
): CreateProductInput {
  return {
    title: values.title,
    description: values.description,
    price: values.price,
    inventoryType: values.inventoryType,
    quantityAvailable: values.inventoryType === "limited" ? values.quantityAvailable : null,
    fileUploadId,
    coverUploadId,
  };
}

/**
 * What stops the form from being published, checked before any byte is uploaded with the same schema as
 * the server: missing title, price, file (or quantity when limited) → 'Missing fields'; else the rule's message.
 */
export function productFormProblem(
  values: ProductFormValues,
  hasFile: boolean,
): ProductFormProblem | undefined {
  const parsed = createProductSchema.safeParse(toCreateProductInput(values, hasFile ? "pending" : "", null));
  const issues = parsed.success ? [] : parsed.error.issues;
  const missing = issues.find((issue) => issue.message === PRODUCT_MESSAGES.missingFields);
  if (missing || !hasFile) {
    return {
      field: missing ? fieldOf(missing.path) : "file",
      title: PRODUCT_MESSAGES.missingFieldsTitle,
      message: PRODUCT_MESSAGES.missingFields,
    };
  }
  const first = issues[0];
  if (!first) return undefined;
  return { field: fieldOf(first.path), title: PRODUCT_MESSAGES.createFailedTitle, message: first.message };
}

function fieldOf(path: readonly PropertyKey[]): ProductFormField {
  const name = path[0];
  return name === "fileUploadId" ? "file" : ((name as keyof ProductFormValues | undefined) ?? "title");
}
