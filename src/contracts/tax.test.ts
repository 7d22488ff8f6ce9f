import { describe, expect, it } from "vitest";
import { defaultTaxCategory, isEuOrUk, taxLabel } from "./tax";

describe("defaultTaxCategory", () => {
  it("is the kind every file shares, and other digital goods otherwise", () => {
    expect(defaultTaxCategory(["application/pdf", "application/epub+zip"])).toBe("ebook");
    expect(defaultTaxCategory(["audio/mpeg", "audio/flac"])).toBe("audio");
    expect(defaultTaxCategory(["video/mp4"])).toBe("video");
    expect(defaultTaxCategory(["application/x-apple-diskimage"])).toBe("software");
    expect(defaultTaxCategory(["application/pdf", "audio/mpeg"])).toBe("other");
    expect(defaultTaxCategory(["application/zip"])).toBe("other");
    expect(defaultTaxCategory([])).toBe("other");
  });
});

describe("taxLabel", () => {
  const base = {
    taxCents: 0,
    taxRate: null,
    taxType: null,
    taxJurisdiction: null,
    taxabilityReason: null,
    reverseCharge: false,
  };
  it("names the tax, its rate and place; says why there is none", () => {
    expect(
      taxLabel({
        ...base,
        taxCents: 380,
        taxRate: "19",
        taxType: "vat",
        taxJurisdiction: "DE",
        taxabilityReason: "standard_rated",
      }),
    ).toBe("VAT 19% (DE)");
    expect(taxLabel({ ...base, taxCents: 89, taxRate: "8.875", taxType: "sales_tax" })).toBe(
      "Sales tax 8.875%",
    );
    expect(taxLabel({ ...base, reverseCharge: true, taxabilityReason: "reverse_charge" })).toBe(
      "Reverse charge",
    );
    expect(taxLabel({ ...base, taxabilityReason: "not_collecting" })).toBe("Tax not collected");
    expect(taxLabel({ ...base, taxabilityReason: "customer_exempt" })).toBe("No tax");
    expect(taxLabel(base)).toBeNull();
  });
});

describe("isEuOrUk", () => {
  it("is the 27 member states and the UK", () => {
    expect(["DE", "FR", "GR", "GB"].map(isEuOrUk)).toEqual([true, true, true, true]);
    expect(["US", "CH", "NO", null].map(isEuOrUk)).toEqual([false, false, false, false]);
  });
});
