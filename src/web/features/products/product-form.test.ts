import { describe, expect, it } from "vitest";
import { PRODUCT_MESSAGES, type SellerProductDetail } from "../../../contracts/products";
import {
  EMPTY_PRODUCT_FORM,
  FIELD_REQUIRED,
  formFieldOf,
  type ProductFormValues,
  productFormProblem,
  productFormValues,
  stockHint,
  toCreateProductInput,
  toUpdateProductInput,
} from "./product-form";

const filled: ProductFormValues = { ...EMPTY_PRODUCT_FORM, title: "Guide", price: "19.99" };
const failedTitle = PRODUCT_MESSAGES.createFailedTitle;
const check = (values: ProductFormValues, hasFile = true) =>
  productFormProblem(values, { hasFile, failedTitle });

const product: SellerProductDetail = {
  id: "p1",
  title: "Guide",
  description: "All of it",
  priceCents: 1950,
  priceMode: "fixed",
  suggestedPriceCents: null,
  inventoryType: "limited",
  quantityAvailable: 6,
  fileSizeBytes: 1000,
  fileType: "application/pdf",
  coverImageUrl: null,
  coverThumbnailUrl: null,
  cover: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  kind: "one_time",
  tiers: [],
  isActive: true,
  fileName: "guide.pdf",
  fileCount: 1,
  files: [
    {
      id: "f1",
      name: "guide.pdf",
      originalName: "guide.pdf",
      sizeBytes: 1000,
      contentType: "application/pdf",
    },
  ],
  issueLicenseKeys: false,
  stampPdfs: false,
  unitsSold: 3,
  unitsHeld: 1,
};

describe("productFormProblem", () => {
  it("accepts a title, a price and a file", () => {
    expect(check(filled)).toBeUndefined();
  });

  it("says 'Missing fields' naming every missing field, each marked next to it", () => {
    expect(check({ ...EMPTY_PRODUCT_FORM, inventoryType: "limited" }, false)).toEqual({
      title: PRODUCT_MESSAGES.missingFieldsTitle,
      message: `${PRODUCT_MESSAGES.missingFields}: Product Title, Price, Quantity, Digital File`,
      errors: {
        title: FIELD_REQUIRED,
        price: FIELD_REQUIRED,
        quantityAvailable: FIELD_REQUIRED,
        file: FIELD_REQUIRED,
      },
    });
    expect(check({ ...filled, title: "  " })).toEqual({
      title: PRODUCT_MESSAGES.missingFieldsTitle,
      message: `${PRODUCT_MESSAGES.missingFields}: Product Title`,
      errors: { title: FIELD_REQUIRED },
    });
  });

  it("shows a missing field and a broken rule together, under 'Missing fields'", () => {
    const problem = check({ ...filled, title: "", price: "1.999" });
    expect(problem?.title).toBe(PRODUCT_MESSAGES.missingFieldsTitle);
    expect(problem?.errors).toEqual({ title: FIELD_REQUIRED, price: PRODUCT_MESSAGES.invalidPrice });
  });

  it("gives the schema's message for a bad price or quantity, under the form's failure title", () => {
    expect(check({ ...filled, price: "1.999" })).toEqual({
      title: failedTitle,
      message: PRODUCT_MESSAGES.invalidPrice,
      errors: { price: PRODUCT_MESSAGES.invalidPrice },
    });
    expect(check({ ...filled, price: "0.10" })?.message).toBe(PRODUCT_MESSAGES.priceTooLow);
    expect(check({ ...filled, inventoryType: "limited", quantityAvailable: "2.5" })?.errors).toEqual({
      quantityAvailable: PRODUCT_MESSAGES.quantityInvalid,
    });
    expect(check({ ...filled, inventoryType: "limited", quantityAvailable: "0" })).toBeUndefined();
  });
});

describe("formFieldOf", () => {
  it("maps the API's field names to the form's", () => {
    expect(formFieldOf("quantityAvailable")).toBe("quantityAvailable");
    expect(formFieldOf("inventoryType")).toBe("quantityAvailable");
    expect(formFieldOf("fileUploadId")).toBe("file");
    expect(formFieldOf("coverUploadId")).toBe("cover");
    expect(formFieldOf(undefined)).toBeUndefined();
    expect(formFieldOf("somethingElse")).toBeUndefined();
  });
});

describe("toCreateProductInput", () => {
  it("sends the typed price and drops the quantity when unlimited", () => {
    const files = [{ uploadId: "file-1", name: "Guide" }];
    const input = toCreateProductInput({ ...filled, quantityAvailable: "3" }, files, null);
    expect(input).toMatchObject({ price: "19.99", quantityAvailable: null, files });
    const limited = toCreateProductInput(
      { ...filled, inventoryType: "limited", quantityAvailable: "3" },
      [{ uploadId: "f" }],
      "c",
    );
    expect(limited).toMatchObject({ quantityAvailable: "3", coverUploadId: "c" });
  });
});

describe("the edit form", () => {
  it("starts from the product: price in dollars, a limited quantity as its total", () => {
    expect(productFormValues(product)).toEqual({
      title: "Guide",
      description: "All of it",
      price: "19.50",
      flexiblePrice: false,
      suggestedPrice: "",
      inventoryType: "limited",
      quantityAvailable: "10",
      issueLicenseKeys: false,
      stampPdfs: false,
    });
    expect(
      productFormValues({ ...product, priceMode: "flexible", priceCents: 0, suggestedPriceCents: 500 }),
    ).toMatchObject({ price: "0.00", flexiblePrice: true, suggestedPrice: "5.00" });
    expect(
      productFormValues({ ...product, inventoryType: "unlimited", quantityAvailable: null }),
    ).toMatchObject({
      inventoryType: "unlimited",
      quantityAvailable: "",
    });
  });

  it("sends only what changed, inventory as a pair, and the uploads", () => {
    const values = { ...productFormValues(product), title: "Guide 2", quantityAvailable: "12" };
    expect(toUpdateProductInput(values, { title: true }, {})).toEqual({ title: "Guide 2" });
    expect(toUpdateProductInput(values, { quantityAvailable: true }, { coverUploadId: null })).toEqual({
      inventoryType: "limited",
      quantityAvailable: "12",
      coverUploadId: null,
    });
    expect(
      toUpdateProductInput(
        { ...values, inventoryType: "unlimited" },
        { inventoryType: true },
        { files: [{ id: "f1" }, { uploadId: "u2" }] },
      ),
    ).toEqual({
      inventoryType: "unlimited",
      quantityAvailable: null,
      files: [{ id: "f1" }, { uploadId: "u2" }],
    });
    expect(toUpdateProductInput(values, {}, {})).toEqual({});
  });

  it("explains what the total quantity counts", () => {
    expect(stockHint(product)).toBe("Counts every unit: 3 sold, 1 in an open checkout, 6 left to sell.");
    expect(stockHint({ ...product, unitsHeld: 2 })).toBe(
      "Counts every unit: 3 sold, 2 in open checkouts, 6 left to sell.",
    );
    expect(stockHint({ ...product, unitsHeld: 0 })).toBe("Counts every unit: 3 sold, 6 left to sell.");
    expect(stockHint({ ...product, inventoryType: "unlimited", unitsSold: 0, unitsHeld: 0 })).toBeUndefined();
  });
});
