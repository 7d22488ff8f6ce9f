import { describe, expect, it } from "vitest";
import { PRODUCT_MESSAGES } from "../../../contracts/products";
import {
  EMPTY_PRODUCT_FORM,
  type ProductFormValues,
  productFormProblem,
  toCreateProductInput,
} from "./product-form";

const filled: ProductFormValues = { ...EMPTY_PRODUCT_FORM, title: "Guide", price: "19.99" };
const missing = {
  title: PRODUCT_MESSAGES.missingFieldsTitle,
  message: PRODUCT_MESSAGES.missingFields,
};

describe("productFormProblem", () => {
  it("accepts a title, a price and a file", () => {
    expect(productFormProblem(filled, true)).toBeUndefined();
  });

  it("says 'Missing fields' for a missing title, price, file or limited quantity", () => {
    expect(productFormProblem({ ...filled, title: "  " }, true)).toEqual({ field: "title", ...missing });
    expect(productFormProblem({ ...filled, price: "" }, true)).toEqual({ field: "price", ...missing });
    expect(productFormProblem(filled, false)).toEqual({ field: "file", ...missing });
    expect(productFormProblem({ ...filled, inventoryType: "limited" }, true)).toEqual({
      field: "quantityAvailable",
      ...missing,
    });
  });

  it("gives the schema's message for a bad price or quantity", () => {
    expect(productFormProblem({ ...filled, price: "1.999" }, true)).toEqual({
      field: "price",
      title: PRODUCT_MESSAGES.createFailedTitle,
      message: PRODUCT_MESSAGES.invalidPrice,
    });
    expect(productFormProblem({ ...filled, price: "0.10" }, true)?.message).toBe(
      PRODUCT_MESSAGES.priceTooLow,
    );
    expect(
      productFormProblem({ ...filled, inventoryType: "limited", quantityAvailable: "2.5" }, true)?.message,
    ).toBe(PRODUCT_MESSAGES.quantityInvalid);
    expect(
      productFormProblem({ ...filled, inventoryType: "limited", quantityAvailable: "0" }, true),
    ).toBeUndefined();
  });
});

describe("toCreateProductInput", () => {
  it("sends the typed price and drops the quantity when unlimited", () => {
    const input = toCreateProductInput({ ...filled, quantityAvailable: "3" }, "file-1", null);
    expect(input).toMatchObject({ price: "19.99", quantityAvailable: null, fileUploadId: "file-1" });
    const limited = toCreateProductInput(
      { ...filled, inventoryType: "limited", quantityAvailable: "3" },
      "f",
      "c",
    );
    expect(limited).toMatchObject({ quantityAvailable: "3", coverUploadId: "c" });
  });
});
