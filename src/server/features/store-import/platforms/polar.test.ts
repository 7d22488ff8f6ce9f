import { describe, expect, it } from "vitest";
import type { ImportItem } from "../import-records";
import { polarApiLicenseKeys, polarCustomersCsv, polarOrdersCsv, polarSubscriptionsCsv } from "./polar";
import { bodyOf, countStreamed, generatedCsv, ofKind, readAll, readFixture } from "./reader-testing";

const PLATFORM = "polar";
const at = (file: string, line: number) => ({ file, line });

function order(items: ImportItem[], id: string) {
  return ofKind(items, "order").find((item) => item.externalId === id);
}

describe("Polar orders CSV, all columns", () => {
  const file = "orders-all-columns.csv";

  it("reads a discounted EUR sale with tax, a quoted product name and a quoted customer name", async () => {
    const items = await readFixture(polarOrdersCsv, PLATFORM, file);
    expect(items[0]).toEqual({ kind: "notice", file, unknownColumns: [], notes: [] });
    expect(order(items, "FLATF-0002")).toEqual({
      kind: "order",
      externalId: "FLATF-0002",
      productExternalId: 'Lightroom Presets "Pro", 2025',
      productTitle: 'Lightroom Presets "Pro", 2025',
      email: "buyer2@example.com",
      buyerName: 'O\'Neil, "Bobby" Jr.',
      amountCents: 2856,
      currency: "eur",
      discountCode: null,
      discountCents: 600,
      status: "completed",
      refundedCents: 0,
      createdAt: "2025-11-04T08:01:59.500Z",
      licenseKey: null,
      origin: at(file, 3),
    });
    expect(
      ofKind(items, "product").find((p) => p.externalId === 'Lightroom Presets "Pro", 2025'),
    ).toMatchObject({
      priceCents: 3000,
      currency: "eur",
    });
  });

  it("reads a full refund and a GBP partial refund", async () => {
    const items = await readFixture(polarOrdersCsv, PLATFORM, file);
    expect(order(items, "FLATF-0003")).toMatchObject({
      status: "refunded",
      amountCents: 2500,
      refundedCents: 2500,
    });
    expect(order(items, "FLATF-0004")).toMatchObject({
      status: "completed",
      amountCents: 2400,
      currency: "gbp",
      refundedCents: 500,
    });
  });

  it("leaves subscription payments to the subscriptions CSV, keeping their product and buyer (UTF-8 names)", async () => {
    const items = await readFixture(polarOrdersCsv, PLATFORM, file);
    expect(order(items, "FLATF-0005")).toBeUndefined();
    expect(order(items, "FLATF-0006")).toBeUndefined();
    expect(ofKind(items, "product").find((p) => p.externalId === "Pro Membership")?.productKind).toBe(
      "membership",
    );
    expect(ofKind(items, "customer").map((c) => c.name)).toContain("Кочергина Дарья");
    expect(items.at(-1)).toEqual({
      kind: "notice",
      file,
      unknownColumns: [],
      notes: [
        "Skipped subscription payments (Billing Reason subscription_…): memberships come over from the subscriptions CSV, as members to invite (2 rows: lines 6, 7)",
      ],
    });
  });
});

describe("Polar orders CSV, default and legacy columns", () => {
  it("reads the default columns: net amounts, and a note that partial refunds lack their amount", async () => {
    const file = "orders-default.csv";
    const items = await readFixture(polarOrdersCsv, PLATFORM, file);
    expect(order(items, "FLATF-0001")).toEqual({
      kind: "order",
      externalId: "FLATF-0001",
      productExternalId: "Pixel Icons Pack",
      productTitle: "Pixel Icons Pack",
      email: "buyer1@example.com",
      buyerName: null,
      amountCents: 2500,
      currency: "usd",
      discountCode: null,
      discountCents: 0,
      status: "completed",
      refundedCents: 0,
      createdAt: "2025-11-03T14:22:05.123Z",
      licenseKey: null,
      origin: at(file, 2),
    });
    expect(order(items, "FLATF-0004")).toMatchObject({
      status: "completed",
      amountCents: 2000,
      refundedCents: 0,
    });
    expect(items.at(-1)).toEqual({
      kind: "notice",
      file,
      unknownColumns: [],
      notes: [
        "Partly refunded orders were imported with nothing refunded: this export has no Refunded Amount column. Export the orders with all columns to bring the refunded amounts (line 5)",
      ],
    });
  });

  it("reads the 2025 header (Amount), keys an order without invoice number by email, time and product", async () => {
    const csv =
      "Email,Created At,Product,Amount,Currency,Status,Invoice number\r\n" +
      "a@example.com,2025-10-30T09:00:00+00:00,Pack,15.0,jpy,paid,\r\n" +
      "b@example.com,2025-10-30T09:00:00,Pack,1.0,usd,paid,X-1\r\n" +
      "c@example.com,2025-10-30T09:00:00+01:00,Pack,1.0,usd,pending,X-2\r\n";
    const items = await readAll(polarOrdersCsv.read("legacy.csv", bodyOf(csv)));
    expect(ofKind(items, "order")).toEqual([
      expect.objectContaining({
        externalId: "a@example.com|2025-10-30T09:00:00.000Z|Pack",
        // Polar divides every currency's amount by 100: 15.0 is ¥1,500.
        amountCents: 1500,
        currency: "jpy",
      }),
    ]);
    expect(ofKind(items, "problem")).toEqual([
      {
        kind: "problem",
        origin: at("legacy.csv", 3),
        reason:
          "Created At has no time zone: '2025-10-30T09:00:00'. Export the file again without editing its dates.",
      },
      {
        kind: "problem",
        origin: at("legacy.csv", 4),
        reason: 'This order is "pending" on Polar, not paid, so it is not imported',
      },
    ]);
  });

  it("streams 100,000 rows", async () => {
    const progress = { produced: 0 };
    const header = "Email,Created At,Product,Net Amount,Currency,Status,Invoice number";
    const row = (i: number) =>
      `b${i}@example.com,2025-11-03T14:22:05+00:00,"Pack ""${i % 10}""",25.0,usd,paid,F-${i}`;
    const body = generatedCsv(header, row, 100_000, progress);
    const { counts, producedAtFirstRecord } = await countStreamed(
      polarOrdersCsv.read("big.csv", body),
      progress,
    );
    expect(counts.get("order")).toBe(100_000);
    expect(counts.get("product")).toBe(10);
    expect(producedAtFirstRecord).toBeLessThan(10_000);
  });
});

describe("Polar subscriptions CSV", () => {
  const file = "subscriptions-all-columns.csv";

  it("invites active, trialing and past-due members; a plan every 3 months is reported", async () => {
    const items = await readFixture(polarSubscriptionsCsv, PLATFORM, file);
    expect(items).toEqual([
      { kind: "notice", file, unknownColumns: [], notes: [] },
      {
        kind: "subscription",
        externalId: "buyer5@example.com|Pro Membership|2025-11-07T11:30:00.000Z",
        productExternalId: "Pro Membership",
        productTitle: "Pro Membership",
        email: "buyer5@example.com",
        status: "active",
        amountCents: 900,
        currency: "usd",
        interval: "month",
        currentPeriodEnd: "2026-01-07T11:30:00.000Z",
        origin: at(file, 2),
      },
      expect.objectContaining({
        email: "buyer9@example.com",
        status: "trialing",
        amountCents: 9000,
        interval: "year",
        currentPeriodEnd: "2025-11-20T10:00:00.000Z",
      }),
      {
        kind: "problem",
        origin: at(file, 5),
        reason:
          "This membership renews every '3 months'; Flatfee memberships renew monthly or yearly, so invite this member by hand",
      },
      {
        kind: "notice",
        file,
        unknownColumns: [],
        notes: [
          "Skipped memberships cancelled at the end of their period: their members chose to leave, so they are not invited (line 3)",
          'Skipped "canceled" subscriptions: only active, trialing and past-due members are invited to re-subscribe (line 6)',
        ],
      },
    ]);
  });

  it("reads the legacy header (Active, Price, Interval)", async () => {
    const csv =
      "Email,Created At,Active,Product,Price,Currency,Interval\n" +
      "a@example.com,2025-05-01T10:00:00+00:00,true,Club,5.0,eur,month\n" +
      "b@example.com,2025-05-01T10:00:00+00:00,false,Club,5.0,eur,month\n";
    const items = await readAll(polarSubscriptionsCsv.read("polar-subscribers.csv", bodyOf(csv)));
    expect(ofKind(items, "subscription")).toEqual([
      {
        kind: "subscription",
        externalId: "a@example.com|Club|2025-05-01T10:00:00.000Z",
        productExternalId: "Club",
        productTitle: "Club",
        email: "a@example.com",
        status: "active",
        amountCents: 500,
        currency: "eur",
        interval: "month",
        currentPeriodEnd: null,
        origin: at("polar-subscribers.csv", 2),
      },
    ]);
  });
});

describe("Polar customers CSV", () => {
  it("reads names with commas and quotes and UTF-8, past the odd Tax ID and JSON metadata cells", async () => {
    const file = "customers.csv";
    const items = await readFixture(polarCustomersCsv, PLATFORM, file);
    expect(items[0]).toEqual({ kind: "notice", file, unknownColumns: [], notes: [] });
    expect(ofKind(items, "customer").map((c) => [c.email, c.name, c.marketing, c.origin.line])).toEqual([
      ["buyer1@example.com", "Ana Souza", "unknown", 2],
      ["buyer2@example.com", 'O\'Neil, "Bobby" Jr.', "unknown", 3],
      ["buyer3@example.com", "Sam Lee", "unknown", 4],
      ["buyer5@example.com", "Zoë Müller-Øster", "unknown", 5],
      ["buyer7@example.com", "Кочергина Дарья", "unknown", 6],
    ]);
  });
});

describe("Polar licence keys (API)", () => {
  it("reads keys by buyer (Polar links no order): revoked and disabled keys come over disabled", async () => {
    const file = "api-license-keys.json";
    const items = await readFixture(polarApiLicenseKeys, PLATFORM, file);
    expect(items[0]).toEqual({
      kind: "notice",
      file,
      unknownColumns: [],
      notes: [
        "Polar ties licence keys to buyers, not to orders: each key names its buyer's email, for the import to match it to that buyer's order",
      ],
    });
    expect(items.slice(1)).toEqual([
      {
        kind: "license_key",
        key: "FLAT-9F1C2B3A-4D5E-4F60-8A7B-1C2D3E4F5A6B",
        orderExternalId: "",
        productExternalId: "",
        buyerEmail: "buyer1@example.com",
        uses: 0,
        disabled: false,
        origin: at(file, 1),
      },
      expect.objectContaining({ key: "0E4D3C2B-1A09-4F87-9E6D-5C4B3A291807", disabled: true }),
      expect.objectContaining({ key: "7B6A5948-3726-4150-9F8E-7D6C5B4A3928", uses: 37, disabled: false }),
      expect.objectContaining({ buyerEmail: "buyer7@example.com", disabled: true }),
    ]);
  });

  it("counts activations when the answer lists them", async () => {
    const key = {
      key: "K-1",
      status: "granted",
      usage: 9,
      customer: { email: "a@example.com" },
      activations: [{}, {}],
    };
    const items = await readAll(polarApiLicenseKeys.read("k.json", bodyOf(JSON.stringify({ items: [key] }))));
    expect(ofKind(items, "license_key")[0]?.uses).toBe(2);
  });
});
