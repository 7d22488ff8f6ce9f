import { describe, expect, it } from "vitest";
import { MEMBERSHIP_MESSAGES } from "../../../contracts/memberships";
import {
  createProductSchema,
  PRODUCT_MESSAGES,
  type SellerProductDetail,
  updateProductSchema,
} from "../../../contracts/products";
import {
  EMPTY_PRODUCT_FORM,
  FIELD_REQUIRED,
  formFieldOf,
  formFieldOfError,
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
  taxCategory: null,
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
      kind: "one_time",
      title: "Guide",
      description: "All of it",
      price: "19.50",
      flexiblePrice: false,
      suggestedPrice: "",
      inventoryType: "limited",
      quantityAvailable: "10",
      issueLicenseKeys: false,
      stampPdfs: false,
      taxCategory: "",
    });
    expect(productFormValues({ ...product, taxCategory: "ebook" })).toMatchObject({ taxCategory: "ebook" });
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

describe("a membership", () => {
  const membership: ProductFormValues = { ...EMPTY_PRODUCT_FORM, kind: "membership", title: "The Studio" };
  const tiers = [
    {
      name: "Basic",
      monthlyPrice: "5",
      yearlyPrice: null,
      trialDays: 7,
      closed: false,
      files: [{ uploadId: "u1" }],
    },
  ];

  it("is created with its tiers instead of a price, stock and license keys", () => {
    const body = toCreateProductInput(
      { ...membership, price: "9", issueLicenseKeys: true, inventoryType: "limited", quantityAvailable: "3" },
      [{ uploadId: "u1", name: "Basics" }],
      null,
      tiers,
    );
    expect(body).toEqual({
      kind: "membership",
      title: "The Studio",
      description: "",
      tiers,
      stampPdfs: false,
      taxCategory: null,
      files: [{ uploadId: "u1", name: "Basics" }],
      coverUploadId: null,
    });
    expect(createProductSchema.safeParse(body).success).toBe(true);
  });

  it("is checked with the server's words: a missing title is a missing field, a tier problem is on the tiers", () => {
    expect(check(membership)).toEqual({
      title: failedTitle,
      message: MEMBERSHIP_MESSAGES.tiersMissing,
      errors: { tiers: MEMBERSHIP_MESSAGES.tiersMissing },
    });
    expect(
      productFormProblem(
        { ...membership, title: "" },
        { hasFile: true, failedTitle, tiers: [{ name: "", monthlyPrice: "5" }] },
      ),
    ).toEqual({
      title: PRODUCT_MESSAGES.missingFieldsTitle,
      message: `${PRODUCT_MESSAGES.missingFields}: Product Title`,
      errors: { title: FIELD_REQUIRED, tiers: MEMBERSHIP_MESSAGES.tierNameMissing },
    });
    // The price field is hidden for a membership, so what is left in it is never checked.
    expect(
      productFormProblem({ ...membership, price: "abc" }, { hasFile: true, failedTitle, tiers }),
    ).toBeUndefined();
  });

  it("sends on an edit the whole tier list it is given, and never a price, stock or license keys", () => {
    const values = { ...membership, title: "The Studio 2", price: "1", issueLicenseKeys: true };
    const edited = [
      { id: "tier_1", name: "Basic", monthlyPrice: "6", closed: true, files: [{ id: "f1" }] },
      { name: "Pro", monthlyPrice: "12", closed: false, files: [{ id: "f1" }, { uploadId: "u2" }] },
    ];
    const body = toUpdateProductInput(
      values,
      { title: true, price: true, issueLicenseKeys: true, inventoryType: true },
      { tiers: edited },
    );
    expect(body).toEqual({ title: "The Studio 2", tiers: edited });
    expect(updateProductSchema.safeParse(body).success).toBe(true);
    expect(toUpdateProductInput(values, {}, {})).toEqual({});
  });

  it("starts the edit form as a membership, and a one-time product's edit never sends tiers", () => {
    expect(productFormValues({ ...product, kind: "membership" }).kind).toBe("membership");
    expect(toUpdateProductInput(productFormValues(product), { title: true }, { tiers: [] })).toEqual({
      title: "Guide",
    });
  });

  it("shows a tier message the server gave without a field next to the tiers", () => {
    expect(formFieldOf("tiers")).toBe("tiers");
    expect(formFieldOfError("tiers", MEMBERSHIP_MESSAGES.unknownTier)).toBe("tiers");
    expect(formFieldOfError(undefined, MEMBERSHIP_MESSAGES.allTiersClosed)).toBe("tiers");
    expect(formFieldOfError(undefined, "Something else")).toBeUndefined();
    expect(formFieldOfError("title", MEMBERSHIP_MESSAGES.priceInvalid)).toBe("title");
  });
});
