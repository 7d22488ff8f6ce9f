import { describe, expect, it } from "vitest";
import { CURRENCY_MESSAGES, MAX_OTHER_PRICES } from "../../../contracts/currencies";
import { MEMBERSHIP_MESSAGES } from "../../../contracts/memberships";
import { PRODUCT_MESSAGES, productSchemas, type SellerProductDetail } from "../../../contracts/products";
import {
  addOtherPrice,
  EMPTY_PRODUCT_FORM,
  FIELD_REQUIRED,
  formFieldOf,
  formFieldOfError,
  freeCurrencies,
  type OtherPriceRow,
  otherPriceInputs,
  otherPriceProblemIndex,
  otherPriceRows,
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
  productFormProblem(values, { hasFile, failedTitle, currency: "usd" });
const { create: createProductSchema, update: updateProductSchema } = productSchemas("usd");

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
  currency: "usd",
  prices: [],
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
        { hasFile: true, failedTitle, currency: "usd", tiers: [{ name: "", monthlyPrice: "5" }] },
      ),
    ).toEqual({
      title: PRODUCT_MESSAGES.missingFieldsTitle,
      message: `${PRODUCT_MESSAGES.missingFields}: Product Title`,
      errors: { title: FIELD_REQUIRED, tiers: MEMBERSHIP_MESSAGES.tierNameMissing },
    });
    // The price field is hidden for a membership, so what is left in it is never checked.
    expect(
      productFormProblem(
        { ...membership, price: "abc" },
        { hasFile: true, failedTitle, currency: "usd", tiers },
      ),
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

describe("a store selling in yen", () => {
  const yen = (values: Partial<ProductFormValues>) =>
    productFormProblem({ ...filled, ...values }, { hasFile: true, failedTitle, currency: "jpy" });

  it("reads the price as whole yen: 1500 is ¥1,500, and 15.50 is refused", () => {
    expect(yen({ price: "1500" })).toBeUndefined();
    const body = toCreateProductInput({ ...filled, price: "1500" }, [{ uploadId: "u1" }], null);
    const parsed = productSchemas("jpy").create.parse(body);
    expect(parsed.priceCents).toBe(1500);
    expect(yen({ price: "15.50" })).toEqual({
      title: failedTitle,
      message: CURRENCY_MESSAGES.invalidPrice("jpy"),
      errors: { price: CURRENCY_MESSAGES.invalidPrice("jpy") },
    });
    // The same text is $15.50 in a dollar store.
    expect(check({ ...filled, price: "15.50" })).toBeUndefined();
  });

  it("starts the edit form from whole yen, never from cents", () => {
    const values = productFormValues({
      ...product,
      currency: "jpy",
      priceCents: 1500,
      priceMode: "flexible",
      suggestedPriceCents: 2000,
    });
    expect(values).toMatchObject({ price: "1500", suggestedPrice: "2000" });
  });
});

describe("prices in other currencies", () => {
  const row = (currency: string, price: string, key = `row-${currency}-${price}`): OtherPriceRow => ({
    key,
    currency,
    price,
  });
  const choices = ["usd", "eur", "gbp", "jpy"].map((code) => ({ code, name: code.toUpperCase() }));

  it("starts the edit form from the saved prices, each in its own currency's decimals", () => {
    const rows = otherPriceRows({
      prices: [
        { currency: "eur", priceCents: 1800 },
        { currency: "jpy", priceCents: 2500 },
      ],
    });
    expect(rows.map(({ currency, price }) => ({ currency, price }))).toEqual([
      { currency: "eur", price: "18.00" },
      { currency: "jpy", price: "2500" },
    ]);
    expect(new Set(rows.map((one) => one.key)).size).toBe(2);
    expect(otherPriceRows(undefined)).toEqual([]);
  });

  it("is sent as the whole list of currencies and typed amounts on a new product", () => {
    const prices = otherPriceInputs([row("eur", " 18 "), row("jpy", "2500")]);
    expect(prices).toEqual([
      { currency: "eur", price: "18" },
      { currency: "jpy", price: "2500" },
    ]);
    const body = toCreateProductInput(filled, [{ uploadId: "u1" }], null, [], prices);
    expect(body.prices).toEqual(prices);
    expect(productSchemas("usd").create.parse(body).prices).toEqual([
      { currency: "eur", priceCents: 1800 },
      { currency: "jpy", priceCents: 2500 },
    ]);
    expect(toCreateProductInput(filled, [], null)).not.toHaveProperty("prices");
  });

  it("is sent on an edit when given (an empty list removes them all), never for a membership", () => {
    const values = productFormValues(product);
    const prices = [{ currency: "eur", price: "18" }];
    expect(toUpdateProductInput(values, {}, { prices })).toEqual({ prices });
    expect(toUpdateProductInput(values, {}, { prices: [] })).toEqual({ prices: [] });
    expect(toUpdateProductInput(values, {}, {})).toEqual({});
    expect(toUpdateProductInput({ ...values, kind: "membership" }, {}, { prices })).toEqual({});
  });

  it("is checked with the server's words, on the row it is about", () => {
    const problemOf = (rows: OtherPriceRow[]) =>
      productFormProblem(filled, {
        hasFile: true,
        failedTitle,
        currency: "usd",
        prices: otherPriceInputs(rows),
      })?.errors.prices;
    expect(problemOf([row("eur", "18"), row("gbp", "15")])).toBeUndefined();

    const twice = [row("eur", "18"), row("gbp", "15"), row("eur", "19")];
    expect(problemOf(twice)).toBe(CURRENCY_MESSAGES.duplicatePrice("eur"));
    expect(otherPriceProblemIndex(twice, CURRENCY_MESSAGES.duplicatePrice("eur"), "usd")).toBe(2);

    const yenCents = [row("eur", "18"), row("jpy", "15.50")];
    expect(problemOf(yenCents)).toBe(CURRENCY_MESSAGES.invalidPrice("jpy"));
    expect(otherPriceProblemIndex(yenCents, CURRENCY_MESSAGES.invalidPrice("jpy"), "usd")).toBe(1);

    const tooLow = [row("eur", "0.10")];
    expect(problemOf(tooLow)).toBe(CURRENCY_MESSAGES.priceTooLow("eur"));
    expect(otherPriceProblemIndex(tooLow, CURRENCY_MESSAGES.priceTooLow("eur"), "usd")).toBe(0);

    const store = [row("eur", "18"), row("usd", "20")];
    expect(problemOf(store)).toBe(CURRENCY_MESSAGES.sameAsStore("usd"));
    expect(otherPriceProblemIndex(store, CURRENCY_MESSAGES.sameAsStore("usd"), "usd")).toBe(1);

    // The server's refusal of a currency the Stripe account can't take, and one about the whole list.
    expect(otherPriceProblemIndex(store, CURRENCY_MESSAGES.unsupported("eur"), "usd")).toBe(0);
    expect(otherPriceProblemIndex(store, CURRENCY_MESSAGES.tooManyPrices, "usd")).toBeUndefined();
    expect(formFieldOf("prices")).toBe("prices");
    expect(formFieldOfError("prices", CURRENCY_MESSAGES.unsupported("eur"))).toBe("prices");
  });

  it("adds a row in the first currency not taken, never the store's, and at most MAX_OTHER_PRICES", () => {
    expect(freeCurrencies(choices, "usd", [row("eur", "18")])).toEqual(["gbp", "jpy"]);
    const added = addOtherPrice([row("eur", "18")], choices, "usd");
    expect(added.map(({ currency, price }) => ({ currency, price }))).toEqual([
      { currency: "eur", price: "18" },
      { currency: "gbp", price: "" },
    ]);
    const all = [row("eur", "1"), row("gbp", "1"), row("jpy", "100")];
    expect(addOtherPrice(all, choices, "usd")).toBe(all);
    const many = Array.from({ length: 30 }, (_, index) => ({
      code: `c${String(index).padStart(2, "0")}`,
      name: "",
    }));
    const full = Array.from({ length: MAX_OTHER_PRICES }, (_, index) => row(many[index]!.code, "1"));
    expect(addOtherPrice(full, many, "usd")).toBe(full);
  });
});
