import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  detectReader,
  ImportFileError,
  PLATFORM_READERS,
  UNKNOWN_EXPORT_MESSAGE,
  unknownExportMessage,
} from ".";
import { polarCustomersCsv, polarSubscriptionsCsv } from "./polar";
import { countStreamed, fixtureHead, fixturePath, generatedCsv } from "./reader-testing";

const SAMPLES: [platform: string, file: string, label: string][] = [
  ["gumroad", "sales.csv", "Gumroad sales CSV"],
  ["gumroad", "sales-2025-04-variant.csv", "Gumroad sales CSV"],
  ["gumroad", "subscribers.csv", "Gumroad audience CSV"],
  ["gumroad", "api-products.json", "Gumroad products (API)"],
  ["gumroad", "api-sales.json", "Gumroad sales (API)"],
  ["lemonsqueezy", "api-orders.json", "Lemon Squeezy orders (API)"],
  ["lemonsqueezy", "api-products.json", "Lemon Squeezy products (API)"],
  ["lemonsqueezy", "api-license-keys.json", "Lemon Squeezy licence keys (API)"],
  ["lemonsqueezy", "api-subscriptions.json", "Lemon Squeezy subscriptions (API)"],
  ["lemonsqueezy", "api-subscriptions-include-variant.json", "Lemon Squeezy subscriptions (API)"],
  ["lemonsqueezy", "subscribers-export.csv", "Lemon Squeezy email-subscriber CSV"],
  ["payhip", "webhook-events.json", "Payhip webhook events"],
  ["payhip", "license-verify-responses.json", "Payhip licence verify responses"],
  ["polar", "orders-default.csv", "Polar orders CSV"],
  ["polar", "orders-all-columns.csv", "Polar orders CSV"],
  ["polar", "subscriptions-all-columns.csv", "Polar subscriptions CSV"],
  ["polar", "customers.csv", "Polar customers CSV"],
  ["polar", "api-license-keys.json", "Polar licence keys (API)"],
];

describe("detectReader", () => {
  it.each(SAMPLES)("recognises %s/%s, and no other reader claims it", (platform, file, label) => {
    const head = fixtureHead(platform, file);
    expect(detectReader(file, head)?.label).toBe(label);
    expect(
      PLATFORM_READERS.filter((reader) => reader.detect(file, head)).map((reader) => reader.label),
    ).toEqual([label]);
  });

  it("recognises an export by its content, whatever its name", () => {
    expect(detectReader("export (3).txt", fixtureHead("polar", "customers.csv"))?.label).toBe(
      "Polar customers CSV",
    );
  });

  it("knows no reader for other files, and says so in words for the page", () => {
    expect(detectReader("keys.json", '{"data": {"key": "K1", "uses": 2}}')).toBe(undefined);
    expect(detectReader("orders.csv", "Order ID,Email,Products (Verbose)\n1,a@example.com,x\n")).toBe(
      undefined,
    );
    expect(detectReader("empty.csv", "")).toBe(undefined);
    expect(unknownExportMessage("orders.csv")).toBe(`"orders.csv": ${UNKNOWN_EXPORT_MESSAGE}`);
    expect(UNKNOWN_EXPORT_MESSAGE).toMatch(/^This file is not an export we know: /);
  });

  it("refuses a PNG renamed .csv", () => {
    const png = readFileSync(fixturePath("gumroad", "sales.csv"), "utf8").replace(
      /^/,
      "\u0089PNG\r\n\u001a\n\u0000\u0000",
    );
    expect(() => detectReader("sales.csv", png)).toThrow(ImportFileError);
    expect(() => detectReader("sales.csv", png)).toThrow(
      '"sales.csv" is not a text export: it looks like an image, a spreadsheet or another binary file. Upload the CSV or JSON file exactly as the platform gave it.',
    );
  });

  it("lists each kind of file once, labelled for the page", () => {
    const labels = PLATFORM_READERS.map((reader) => reader.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(new Set(PLATFORM_READERS.map((reader) => reader.platform))).toEqual(
      new Set(["gumroad", "lemonsqueezy", "payhip", "polar"]),
    );
  });
});

describe("Polar's other CSV readers stream 100,000 rows", () => {
  it("subscriptions", async () => {
    const progress = { produced: 0 };
    const header = "Email,Started At,Product,Amount,Currency,Status,Billing Interval";
    const row = (i: number) => `m${i}@example.com,2025-11-07T11:30:00+00:00,Club,9.0,usd,active,month`;
    const body = generatedCsv(header, row, 100_000, progress);
    const { counts, producedAtFirstRecord } = await countStreamed(
      polarSubscriptionsCsv.read("s.csv", body),
      progress,
    );
    expect(counts.get("subscription")).toBe(100_000);
    expect(producedAtFirstRecord).toBeLessThan(10_000);
  });

  it("customers", async () => {
    const progress = { produced: 0 };
    const header = "ID,External ID,Created At,Email,Name";
    const row = (i: number) => `id-${i},,2025-11-03T14:20:00+00:00,c${i}@example.com,"Name, ${i}"`;
    const body = generatedCsv(header, row, 100_000, progress);
    const { counts, producedAtFirstRecord } = await countStreamed(
      polarCustomersCsv.read("c.csv", body),
      progress,
    );
    expect(counts.get("customer")).toBe(100_000);
    expect(producedAtFirstRecord).toBeLessThan(10_000);
  });
});
