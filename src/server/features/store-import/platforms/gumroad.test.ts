import { describe, expect, it } from "vitest";
import type { ImportItem } from "../import-records";
import { gumroadApiProducts, gumroadApiSales, gumroadAudienceCsv, gumroadSalesCsv } from "./gumroad";
import {
  bodyOf,
  countStreamed,
  csvLine,
  generatedCsv,
  importError,
  ofKind,
  readAll,
  readFixture,
  sampleRow,
} from "./reader-testing";

const origin = (line: number, file = "sales.csv") => ({ file, line });

function byExternalId(items: ImportItem[], kind: "order" | "product", id: string) {
  return items.find((item) => item.kind === kind && item.externalId === id);
}

async function readSales(csv: string) {
  return readAll(gumroadSalesCsv.read("sales.csv", bodyOf(csv)));
}

describe("Gumroad sales CSV (newest header)", () => {
  it("says first which columns it does not know (custom fields), and last which rows it skipped", async () => {
    const items = await readFixture(gumroadSalesCsv, "gumroad", "sales.csv");
    expect(items[0]).toEqual({ kind: "notice", file: "sales.csv", unknownColumns: ["Company"], notes: [] });
    expect(items.at(-1)).toEqual({
      kind: "notice",
      file: "sales.csv",
      unknownColumns: [],
      notes: [
        "Skipped membership charges and free trials: Gumroad's sales CSV does not say which memberships are still active, so they are not imported as orders (their products and buyers are); invite your members to re-subscribe (line 8)",
        "Skipped Gumroad's Totals row (line 9)",
      ],
    });
    expect(ofKind(items, "problem")).toEqual([]);
    expect(ofKind(items, "order").map((order) => order.origin.line)).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it("reads a plain sale with its licence key and the key's use count", async () => {
    const items = await readFixture(gumroadSalesCsv, "gumroad", "sales.csv");
    expect(items.slice(1, 5)).toEqual([
      {
        kind: "product",
        externalId: "pxicn",
        title: "Pixel Icons Pack",
        description: "",
        priceCents: 2500,
        currency: "usd",
        priceMode: "fixed",
        suggestedPriceCents: null,
        productKind: "one_time",
        issueLicenseKeys: true,
        origin: origin(2),
      },
      {
        kind: "customer",
        email: "buyer1@example.com",
        name: "Ana Souza",
        marketing: "subscribed",
        origin: origin(2),
      },
      {
        kind: "order",
        externalId: "Qk3vX9pL2mN8rT5wY1zA0g==",
        productExternalId: "pxicn",
        productTitle: "Pixel Icons Pack",
        email: "buyer1@example.com",
        buyerName: "Ana Souza",
        amountCents: 2500,
        currency: "usd",
        discountCode: null,
        discountCents: 0,
        status: "completed",
        refundedCents: 0,
        createdAt: "2025-11-03T14:22:05.000Z",
        licenseKey: "1A2B3C4D-5E6F7A8B-9C0D1E2F-3A4B5C6D",
        origin: origin(2),
      },
      {
        kind: "license_key",
        key: "1A2B3C4D-5E6F7A8B-9C0D1E2F-3A4B5C6D",
        orderExternalId: "Qk3vX9pL2mN8rT5wY1zA0g==",
        productExternalId: "pxicn",
        uses: 2,
        disabled: false,
        origin: origin(2),
      },
    ]);
  });

  it("reads a discount code and a buyer name with a comma and quotes", async () => {
    const items = await readFixture(gumroadSalesCsv, "gumroad", "sales.csv");
    expect(byExternalId(items, "order", "Rm4wY0qM3nO9sU6xZ2aB1h==")).toMatchObject({
      buyerName: 'O\'Neil, "Bobby" Jr.',
      amountCents: 3200,
      currency: "usd",
      discountCode: "SPRING20",
      discountCents: 0,
      status: "completed",
    });
    // The product is priced from its first sale's item price (the variant's extra left out).
    expect(byExternalId(items, "product", "lrpst")).toMatchObject({
      priceCents: 2200,
      issueLicenseKeys: false,
    });
  });

  it("reads a full refund (refunded, its key disabled) and a partial one (completed, with what went back)", async () => {
    const items = await readFixture(gumroadSalesCsv, "gumroad", "sales.csv");
    expect(byExternalId(items, "order", "Sn5xZ1rN4oP0tV7yA3bC2i==")).toMatchObject({
      status: "refunded",
      amountCents: 2500,
      refundedCents: 2500,
    });
    expect(
      ofKind(items, "license_key").find((key) => key.orderExternalId === "Sn5xZ1rN4oP0tV7yA3bC2i=="),
    ).toEqual({
      kind: "license_key",
      key: "2B3C4D5E-6F7A8B9C-0D1E2F3A-4B5C6D7E",
      orderExternalId: "Sn5xZ1rN4oP0tV7yA3bC2i==",
      productExternalId: "pxicn",
      uses: 0,
      disabled: true,
      origin: origin(4),
    });
    expect(byExternalId(items, "order", "To6yA2sO5pQ1uW8zB4cD3j==")).toMatchObject({
      status: "completed",
      amountCents: 3000,
      refundedCents: 500,
    });
  });

  it("reads what the buyer paid in their own currency: euros, and yen with no decimals", async () => {
    const items = await readFixture(gumroadSalesCsv, "gumroad", "sales.csv");
    expect(byExternalId(items, "order", "Up7zB3tP6qR2vX9aC5dE4k==")).toMatchObject({
      buyerName: "Zoë Müller-Øster",
      amountCents: 2560,
      currency: "eur",
      refundedCents: 0,
      // What Gumroad charged in US dollars (the sale and the tax it added on top).
      settlement: { amountCents: 2975, currency: "usd", refundedCents: 0 },
    });
    expect(byExternalId(items, "order", "Vq8aC4uQ7rS3wY0bD6eF5l==")).toMatchObject({
      buyerName: "Кочергина Дарья",
      amountCents: 1500,
      currency: "jpy",
      createdAt: "2025-11-08T23:59:59.000Z",
    });
  });

  it("brings a membership's product and buyer (who asked not to be contacted) but not the charge", async () => {
    const items = (await readFixture(gumroadSalesCsv, "gumroad", "sales.csv")).filter(
      (item) => item.kind !== "notice" && item.origin.line === 8,
    );
    expect(items).toEqual([
      expect.objectContaining({
        kind: "product",
        externalId: "promb",
        productKind: "membership",
        priceCents: 900,
      }),
      {
        kind: "customer",
        email: "buyer7@example.com",
        name: "Buyer Seven",
        marketing: "unsubscribed",
        origin: origin(8),
      },
    ]);
  });
});

describe("Gumroad sales CSV (April 2025 header)", () => {
  it("matches the older header by name: a refunded sale with a quoted name, the key without a count", async () => {
    const items = await readFixture(gumroadSalesCsv, "gumroad", "sales-2025-04-variant.csv");
    const file = "sales-2025-04-variant.csv";
    expect(items[0]).toEqual({ kind: "notice", file, unknownColumns: [], notes: [] });
    expect(ofKind(items, "license_key")).toEqual([]);
    expect(byExternalId(items, "order", "Xs0dF7xT0uV6zB3eG9hI8o==")).toMatchObject({
      licenseKey: "4D5E6F7A-8B9C0D1E-2F3A4B5C-6D7E8F9A",
      createdAt: "2025-03-02T10:00:00.000Z",
    });
    expect(byExternalId(items, "order", "Yt1eG8yU1vW7aC4fH0iJ9p==")).toEqual({
      kind: "order",
      externalId: "Yt1eG8yU1vW7aC4fH0iJ9p==",
      productExternalId: "lrpst",
      productTitle: "Lightroom Presets",
      email: "buyer9@example.com",
      buyerName: 'Smith, "Jo"',
      amountCents: 2400,
      currency: "usd",
      discountCode: "WELCOME",
      discountCents: 0,
      status: "refunded",
      refundedCents: 2400,
      createdAt: "2025-03-03T12:34:56.000Z",
      licenseKey: null,
      origin: origin(3, file),
    });
    expect(items.at(-1)).toEqual({
      kind: "notice",
      file,
      unknownColumns: [],
      notes: ["Skipped Gumroad's Totals row (line 4)"],
    });
  });
});

describe("Gumroad sales CSV, rows made from the sample's first sale", () => {
  const sample = sampleRow("gumroad", "sales.csv", 2);
  const sale = (changes: Record<string, string>) => ({ ...sample.row, ...changes });

  it("takes Gumroad's formula guard off a Purchase ID, and keeps a formula-looking name as text", async () => {
    const items = await readSales(
      sample.csv([sale({ "Purchase ID": "'-Wr9bD5vR8sT4xZ1cE7fG6m==", "Buyer Name": "=HYPERLINK(1)" })]),
    );
    expect(ofKind(items, "order")[0]).toMatchObject({
      externalId: "-Wr9bD5vR8sT4xZ1cE7fG6m==",
      buyerName: "=HYPERLINK(1)",
    });
  });

  it("adds the tax Gumroad charged on top of the price", async () => {
    const items = await readSales(sample.csv([sale({ "Taxes ($)": "4.75", "Tax Included in Price?": "0" })]));
    expect(ofKind(items, "order")[0]).toMatchObject({ amountCents: 2975, currency: "usd" });
    const included = await readSales(
      sample.csv([sale({ "Taxes ($)": "4.75", "Tax Included in Price?": "1" })]),
    );
    expect(ofKind(included, "order")[0]).toMatchObject({ amountCents: 2500 });
  });

  it("reads a buyer-currency partial refund, and falls back to dollars when its refunded total is missing", async () => {
    const partial = {
      "Refunded?": "1",
      "Partial Refund ($)": "5.0",
      "Buyer Currency": "EUR",
      "Buyer Total": "23.1",
    };
    const inEuros = await readSales(sample.csv([sale({ ...partial, "Buyer Refunded Total": "4.62" })]));
    expect(ofKind(inEuros, "order")[0]).toMatchObject({
      amountCents: 2310,
      currency: "eur",
      refundedCents: 462,
    });
    const inDollars = await readSales(sample.csv([sale({ ...partial, "Buyer Refunded Total": "" })]));
    expect(ofKind(inDollars, "order")[0]).toMatchObject({
      amountCents: 2500,
      currency: "usd",
      refundedCents: 500,
    });
  });

  it("reports rows it cannot read, in words the creator can act on, and reads the others", async () => {
    const items = await readSales(
      sample.csv([
        sale({ "Sale Price ($)": "abc" }),
        sale({ "Purchase Email": "" }),
        sale({ "Sale Price ($)": "=1+1" }),
        sale({ "Disputed?": "1" }),
        sale({ "Access Revoked?": "1" }),
        sale({ "Purchase Time (UTC timezone)": "03/11/2025" }),
        sale({ "Refunded?": "1" }),
        sale({ "Purchase ID": "ok" }),
      ]),
    );
    expect(ofKind(items, "problem")).toEqual([
      { kind: "problem", origin: origin(2), reason: "Sale Price ($) is not an amount: 'abc'" },
      { kind: "problem", origin: origin(3), reason: "Purchase Email is empty" },
      {
        kind: "problem",
        origin: origin(4),
        reason: "Sale Price ($) looks like a spreadsheet formula, not an amount: '=1+1'",
      },
      {
        kind: "problem",
        origin: origin(5),
        reason: "This sale was disputed (a chargeback) and the dispute was not won, so it is not imported",
      },
      {
        kind: "problem",
        origin: origin(6),
        reason: "You revoked this buyer's access on Gumroad, so the sale is not imported",
      },
      {
        kind: "problem",
        origin: origin(7),
        reason: "Purchase Time (UTC timezone) is not a date and time: '03/11/2025'",
      },
      {
        kind: "problem",
        origin: origin(8),
        reason:
          "Refunded? is 1 but neither Fully Refunded? nor Partial Refund ($) says how much was refunded",
      },
    ]);
    expect(ofKind(items, "order").map((order) => order.externalId)).toEqual(["ok"]);
    // The product comes with the first row that could be read, not with a rejected one.
    expect(ofKind(items, "product").map((product) => product.origin.line)).toEqual([9]);
  });

  it("reads a time with no zone as UTC, as the column's name says", async () => {
    const items = await readSales(
      sample.csv([sale({ "Purchase Time (UTC timezone)": "2025-11-03 14:22:05" })]),
    );
    expect(ofKind(items, "order")[0]?.createdAt).toBe("2025-11-03T14:22:05.000Z");
  });

  it("refuses a file that is not a sales CSV, a PNG renamed .csv, and a broken CSV", async () => {
    const notSales = await importError(readSales("Email,Total\na@example.com,1\n"));
    expect(notSales.message).toBe(
      '"sales.csv" is not a Gumroad sales CSV: its header lacks the columns "Purchase ID", "Item Name", "Purchase Email", "Purchase Date", "Sale Price ($)", "Product ID".',
    );
    const _png = await importError(
      readAll(gumroadSalesCsv.read("sales.csv", bodyOf(Uint8Array.from([0x89, 0x50, 0, 0])))),
    );
    const broken = await importError(readSales(`${sample.csv([sale({})])}"Xs0,Pixel Icons Pack\n`));
    expect(broken.message).toContain("a quoted cell that starts after line 2 is never closed");
  });

  it("streams 100,000 rows: the first records come out before the last row is produced", async () => {
    const progress = { produced: 0 };
    const header = csvLine(sample.header);
    const rowOf = (index: number) =>
      csvLine(
        sample.header.map((column) => (column === "Purchase ID" ? `P${index}` : (sample.row[column] ?? ""))),
      );
    const body = generatedCsv(header, rowOf, 100_000, progress);
    const { counts, producedAtFirstRecord } = await countStreamed(
      gumroadSalesCsv.read("big.csv", body),
      progress,
    );
    expect(counts.get("order")).toBe(100_000);
    expect(counts.get("license_key")).toBe(100_000);
    expect(counts.get("product")).toBe(1);
    expect(producedAtFirstRecord).toBeLessThan(10_000);
  });
});

describe("Gumroad audience CSV", () => {
  it("reads every subscriber as someone who agreed to hear from the creator", async () => {
    const items = await readFixture(gumroadAudienceCsv, "gumroad", "subscribers.csv");
    const file = "subscribers.csv";
    expect(items[0]).toEqual({ kind: "notice", file, unknownColumns: [], notes: [] });
    expect(items.slice(1)).toEqual(
      ["buyer1@example.com", "buyer5@example.com", "follower1@example.com", "zoë.follower@example.com"].map(
        (email, index) => ({
          kind: "customer",
          email,
          name: null,
          marketing: "subscribed",
          origin: origin(index + 2, file),
        }),
      ),
    );
  });

  it("reads the older followers header, and streams", async () => {
    const items = await readAll(
      gumroadAudienceCsv.read(
        "f.csv",
        bodyOf("Follower Email,Followed Time\nf@example.com,2025-04-01 10:00:00 UTC\n"),
      ),
    );
    expect(ofKind(items, "customer")).toEqual([
      {
        kind: "customer",
        email: "f@example.com",
        name: null,
        marketing: "subscribed",
        origin: origin(2, "f.csv"),
      },
    ]);
    const progress = { produced: 0 };
    const body = generatedCsv(
      "Subscriber Email,Subscribed Time",
      (i) => `s${i}@example.com,2025-11-03 14:22:05 UTC`,
      100_000,
      progress,
    );
    const { counts, producedAtFirstRecord } = await countStreamed(
      gumroadAudienceCsv.read("big.csv", body),
      progress,
    );
    expect(counts.get("customer")).toBe(100_000);
    expect(producedAtFirstRecord).toBeLessThan(10_000);
  });
});

describe("Gumroad API products and sales", () => {
  it("reads products keyed by their permalink, in their own currency, with their HTML description", async () => {
    const items = await readFixture(gumroadApiProducts, "gumroad", "api-products.json");
    const file = "api-products.json";
    expect(items[0]).toEqual({ kind: "notice", file, unknownColumns: [], notes: [] });
    expect(items[2]).toEqual({
      kind: "product",
      externalId: "lrpst",
      title: "Lightroom Presets",
      description: "<p>Presets for Lightroom — Ünïcode ✓</p>",
      priceCents: 3000,
      currency: "eur",
      priceMode: "fixed",
      suggestedPriceCents: null,
      productKind: "one_time",
      issueLicenseKeys: false,
      origin: origin(2, file),
    });
    expect(items[3]).toMatchObject({ externalId: "promb", productKind: "membership", priceCents: 900 });
  });

  it("skips deleted products with a note, and refuses a document that is not a products list", async () => {
    const document = { products: [{ id: "x", name: "Gone", price: 100, currency: "usd", deleted: true }] };
    const items = await readAll(gumroadApiProducts.read("p.json", bodyOf(JSON.stringify(document))));
    expect(items).toEqual([
      {
        kind: "notice",
        file: "p.json",
        unknownColumns: [],
        notes: ["Skipped products deleted on Gumroad (item 1)"],
      },
    ]);
    const error = await importError(readAll(gumroadApiProducts.read("p.json", bodyOf('{"sales": []}'))));
    expect(error.message).toBe('"p.json" is not a Gumroad products list: it has no "products" list.');
  });

  it("reads API sales: an offer code, a refund with its key, products the first time they appear", async () => {
    const items = await readFixture(gumroadApiSales, "gumroad", "api-sales.json");
    const file = "api-sales.json";
    expect(ofKind(items, "product").map((product) => product.externalId)).toEqual(["pxicn", "lrpst"]);
    expect(byExternalId(items, "order", "Rm4wY0qM3nO9sU6xZ2aB1h==")).toMatchObject({
      discountCode: "SPRING20",
      buyerName: 'O\'Neil, "Bobby" Jr.',
      amountCents: 3200,
    });
    expect(byExternalId(items, "order", "Sn5xZ1rN4oP0tV7yA3bC2i==")).toEqual({
      kind: "order",
      externalId: "Sn5xZ1rN4oP0tV7yA3bC2i==",
      productExternalId: "pxicn",
      productTitle: "Pixel Icons Pack",
      email: "buyer3@example.com",
      buyerName: "Sam Lee",
      amountCents: 2500,
      currency: "usd",
      discountCode: null,
      discountCents: 0,
      status: "refunded",
      refundedCents: 2500,
      createdAt: "2025-11-05T19:45:00.000Z",
      licenseKey: "2B3C4D5E-6F7A8B9C-0D1E2F3A-4B5C6D7E",
      origin: origin(3, file),
    });
  });

  it("reports a partly refunded API sale (the API does not say how much) and points to the CSV", async () => {
    const sale = {
      id: "s1",
      email: "a@example.com",
      created_at: "2025-11-03T14:22:05Z",
      product_name: "P",
      product_permalink: "p",
      price: 1000,
      refunded: false,
      partially_refunded: true,
    };
    const items = await readAll(gumroadApiSales.read("s.json", bodyOf(JSON.stringify({ sales: [sale] }))));
    expect(ofKind(items, "problem")).toEqual([
      {
        kind: "problem",
        origin: origin(1, "s.json"),
        reason:
          "This sale was partly refunded and Gumroad's sales API does not say how much: import it from the sales CSV instead",
      },
    ]);
  });
});
