import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ARCHIVE_RECORD_FILES,
  archiveSegment,
  archiveTierSchema,
  coverPath,
  picturePath,
  productFilePath,
  STORE_ARCHIVE_SCHEMA_FILE,
  storeArchiveJsonSchema,
} from "./store-archive";

describe("the store archive's format", () => {
  it("is documented by the committed JSON Schema, regenerated whenever the records change", () => {
    const committed = JSON.parse(readFileSync(path.resolve(STORE_ARCHIVE_SCHEMA_FILE), "utf8"));
    // Compared as data (the file is formatted as the repository formats JSON).
    expect(
      committed,
      "docs/export-format.schema.json is stale: run `npx tsx scripts/write-export-schema.ts` and commit it",
    ).toEqual(JSON.parse(JSON.stringify(storeArchiveJsonSchema())));
  });

  it("describes every record file, open to fields a later version 1 adds", () => {
    const schema = storeArchiveJsonSchema();
    expect(Object.keys(schema.$defs).sort()).toHaveLength(Object.keys(ARCHIVE_RECORD_FILES).length + 2);
    expect(JSON.stringify(schema)).not.toContain('"additionalProperties":false');
  });

  it("reads a tier of an archive written before tiers carried other prices as having none", () => {
    const tier = {
      id: "tier_1",
      position: 0,
      name: "Fan",
      description: "",
      currency: "usd",
      monthlyPriceCents: 500,
      yearlyPriceCents: 5000,
      trialDays: 0,
      closed: false,
      removedAt: null,
      fileIds: [],
    };
    expect(archiveTierSchema.parse(tier).otherPrices).toEqual([]);
    const otherPrices = [
      { currency: "eur", monthlyPriceCents: 450, yearlyPriceCents: 4500 },
      { currency: "gbp", monthlyPriceCents: 400, yearlyPriceCents: 4000 },
    ];
    expect(archiveTierSchema.parse({ ...tier, otherPrices }).otherPrices).toEqual(otherPrices);
    expect(
      archiveTierSchema.safeParse({ ...tier, otherPrices: [{ currency: "EUR", monthlyPriceCents: 4.5 }] })
        .success,
    ).toBe(false);
  });

  it("keeps every name one safe path segment", () => {
    expect(archiveSegment("a/b\\c.pdf")).toBe("a_b_c.pdf");
    expect(archiveSegment("..")).toBe("_");
    expect(archiveSegment(".")).toBe("_");
    expect(archiveSegment("...pdf")).toBe("...pdf");
    expect(productFilePath("p1", "f1", "../../etc/passwd")).toBe("files/p1/f1/.._.._etc_passwd");
    expect(coverPath("p1", "image/jpeg")).toBe("covers/p1/cover.jpg");
    expect(picturePath("image/webp")).toBe("store/picture.webp");
  });
});
