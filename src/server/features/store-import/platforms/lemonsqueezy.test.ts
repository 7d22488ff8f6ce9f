import { describe, expect, it } from "vitest";
import type { ImportItem } from "../import-records";
import {
  lemonSqueezyApiLicenseKeys,
  lemonSqueezyApiOrders,
  lemonSqueezyApiProducts,
  lemonSqueezyApiSubscriptions,
  lemonSqueezySubscribersCsv,
} from "./lemonsqueezy";
import {
  bodyOf,
  countStreamed,
  generatedCsv,
  importError,
  ofKind,
  readAll,
  readFixture,
} from "./reader-testing";

const PLATFORM = "lemonsqueezy";
const at = (file: string, line: number) => ({ file, line });

function order(items: ImportItem[], id: string) {
  return ofKind(items, "order").find((item) => item.externalId === id);
}

const STORE_CURRENCY_NOTE =
  "Lemon Squeezy's products and plans do not say their currency: their prices are read as US dollars. If your Lemon Squeezy store used another currency, correct the prices after the import.";

describe("Lemon Squeezy orders (API)", () => {
  const file = "api-orders.json";

  it("reads an EUR order with its discount code, VAT and a buyer name with a comma and quotes", async () => {
    const items = await readFixture(lemonSqueezyApiOrders, PLATFORM, file);
    expect(items[0]).toEqual({ kind: "notice", file, unknownColumns: [], notes: [] });
    expect(order(items, "1002")).toEqual({
      kind: "order",
      externalId: "1002",
      productExternalId: "302",
      productTitle: "Lightroom Presets",
      email: "buyer2@example.com",
      buyerName: 'O\'Neil, "Bobby" Jr.',
      amountCents: 2856,
      currency: "eur",
      discountCode: "SPRING20",
      discountCents: 600,
      status: "completed",
      refundedCents: 0,
      createdAt: "2025-11-04T08:01:59.000Z",
      licenseKey: null,
      origin: at(file, 4),
    });
    // The included customer's marketing status: unsubscribed.
    expect(ofKind(items, "customer").find((c) => c.email === "buyer2@example.com")?.marketing).toBe(
      "unsubscribed",
    );
  });

  it("reads a full refund (its key disabled) and a partial one (paid, with the amount refunded)", async () => {
    const items = await readFixture(lemonSqueezyApiOrders, PLATFORM, file);
    expect(order(items, "1003")).toMatchObject({
      status: "refunded",
      amountCents: 2500,
      refundedCents: 2500,
      licenseKey: "6f1d2b3c-4d5e-4f60-9b7c-8d9e0f1a2b3c",
    });
    expect(ofKind(items, "license_key").find((key) => key.orderExternalId === "1003")).toEqual({
      kind: "license_key",
      key: "6f1d2b3c-4d5e-4f60-9b7c-8d9e0f1a2b3c",
      orderExternalId: "1003",
      productExternalId: "301",
      uses: 0,
      disabled: true,
      origin: at(file, 3),
    });
    expect(order(items, "1004")).toMatchObject({
      status: "completed",
      amountCents: 2400,
      currency: "gbp",
      refundedCents: 500,
    });
  });

  it("emits each product the first time an order shows it, with keys if that order had one", async () => {
    const items = await readFixture(lemonSqueezyApiOrders, PLATFORM, file);
    expect(
      ofKind(items, "product").map((p) => [p.externalId, p.priceCents, p.currency, p.issueLicenseKeys]),
    ).toEqual([
      ["303", 900, "usd", true],
      ["302", 2000, "gbp", false],
      ["301", 2500, "usd", true],
    ]);
    expect(ofKind(items, "customer").find((c) => c.email === "buyer5@example.com")?.name).toBe(
      "Zoë Müller-Øster",
    );
  });

  it("skips test-mode orders with a note and reports an unpaid one", async () => {
    const base = {
      type: "orders",
      attributes: {
        user_email: "a@example.com",
        currency: "USD",
        total: 100,
        created_at: "2025-11-03T14:22:05.000000Z",
        first_order_item: { product_id: 1, product_name: "P", price: 100 },
      },
    };
    const document = {
      data: [
        { ...base, id: "1", attributes: { ...base.attributes, status: "paid", test_mode: true } },
        { ...base, id: "2", attributes: { ...base.attributes, status: "pending", order_number: 7 } },
      ],
    };
    const items = await readAll(lemonSqueezyApiOrders.read("o.json", bodyOf(JSON.stringify(document))));
    expect(items).toEqual([
      {
        kind: "notice",
        file: "o.json",
        unknownColumns: [],
        notes: ["Skipped entries made in Lemon Squeezy's test mode (not real sales) (item 1)"],
      },
      {
        kind: "problem",
        origin: at("o.json", 2),
        reason: 'Order #7 is "pending" on Lemon Squeezy, not paid, so it is not imported',
      },
    ]);
  });

  it("refuses a document that is not an API list", async () => {
    const error = await importError(readAll(lemonSqueezyApiOrders.read("o.json", bodyOf('{"orders": []}'))));
    expect(error.message).toBe(
      '"o.json" is not a Lemon Squeezy orders list: it is not a Lemon Squeezy API list (no "data" list).',
    );
  });
});

describe("Lemon Squeezy licence keys (API)", () => {
  it("reads each key with its activations; disabled and expired keys come over disabled", async () => {
    const file = "api-license-keys.json";
    const items = await readFixture(lemonSqueezyApiLicenseKeys, PLATFORM, file);
    expect(items).toEqual([
      { kind: "notice", file, unknownColumns: [], notes: [] },
      ...[
        ["5e0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b", "1001", 2, false],
        ["6f1d2b3c-4d5e-4f60-9b7c-8d9e0f1a2b3c", "1003", 0, true],
        ["7a2e3c4d-5e6f-4071-8c8d-9e0f1a2b3c4d", "1005", 0, false],
        ["8b3f4d5e-6f70-4182-9d9e-0f1a2b3c4d5e", "1006", 1, true],
        ["9c4a5e6f-7081-4293-8eaf-1a2b3c4d5e6f", "1007", 2, false],
      ].map(([key, orderId, uses, disabled], index) => ({
        kind: "license_key",
        key,
        orderExternalId: orderId,
        productExternalId: orderId === "1005" ? "303" : "301",
        uses,
        disabled,
        origin: at(file, index + 1),
      })),
    ]);
  });
});

describe("Lemon Squeezy products (API)", () => {
  it("reads products with their variants: keys if any variant issues them, a membership if any is a subscription", async () => {
    const file = "api-products.json";
    const items = await readFixture(lemonSqueezyApiProducts, PLATFORM, file);
    expect(items[0]).toEqual({ kind: "notice", file, unknownColumns: [], notes: [STORE_CURRENCY_NOTE] });
    expect(items[2]).toEqual({
      kind: "product",
      externalId: "302",
      title: "Lightroom Presets",
      description: "<p>Presets — Ünïcode ✓</p>",
      priceCents: 2000,
      currency: "usd",
      priceMode: "fixed",
      suggestedPriceCents: null,
      productKind: "one_time",
      issueLicenseKeys: true,
      origin: at(file, 2),
    });
    expect(items[3]).toMatchObject({ externalId: "303", productKind: "membership", issueLicenseKeys: true });
  });
});

describe("Lemon Squeezy subscriptions (API)", () => {
  it("invites active, on-trial and past-due members, with their plan's price from include=variant", async () => {
    const file = "api-subscriptions-include-variant.json";
    const items = await readFixture(lemonSqueezyApiSubscriptions, PLATFORM, file);
    expect(items[0]).toEqual({
      kind: "notice",
      file,
      unknownColumns: [],
      notes: [
        STORE_CURRENCY_NOTE,
        'Skipped "cancelled" subscriptions: only active, on-trial and past-due members are invited to re-subscribe (item 2)',
        'Skipped "paused" subscriptions: only active, on-trial and past-due members are invited to re-subscribe (item 5)',
        'Skipped "expired" subscriptions: only active, on-trial and past-due members are invited to re-subscribe (item 6)',
      ],
    });
    expect(items.slice(1)).toEqual([
      {
        kind: "subscription",
        externalId: "601",
        productExternalId: "303",
        productTitle: "Pro Membership",
        email: "buyer5@example.com",
        status: "active",
        amountCents: 900,
        currency: "usd",
        interval: "month",
        currentPeriodEnd: "2025-12-07T11:30:00.000Z",
        origin: at(file, 1),
      },
      expect.objectContaining({ externalId: "603", status: "trialing", amountCents: 9000, interval: "year" }),
      expect.objectContaining({
        externalId: "604",
        status: "past_due",
        currentPeriodEnd: "2025-11-12T08:00:00.000Z",
      }),
    ]);
  });

  it("reports members whose plan the list does not carry, saying how to download it", async () => {
    const file = "api-subscriptions.json";
    const items = await readFixture(lemonSqueezyApiSubscriptions, PLATFORM, file);
    expect(ofKind(items, "problem").map((p) => [p.origin.line, p.reason])).toEqual(
      [1, 3, 4].map((line) => [
        line,
        "Lemon Squeezy's subscriptions list does not give the plan's price and billing interval: download it again with ?include=variant",
      ]),
    );
  });
});

describe("Lemon Squeezy email-subscriber CSV", () => {
  it("reads consent: only subscribed agrees, an unsubscribe is kept, a bounce or pending check says nothing", async () => {
    const file = "subscribers-export.csv";
    const items = await readFixture(lemonSqueezySubscribersCsv, PLATFORM, file);
    expect(items).toEqual([
      { kind: "notice", file, unknownColumns: [], notes: [] },
      {
        kind: "customer",
        email: "buyer1@example.com",
        name: "Ana Souza",
        marketing: "subscribed",
        origin: at(file, 2),
      },
      {
        kind: "customer",
        email: "buyer2@example.com",
        name: 'O\'Neil, "Bobby" Jr.',
        marketing: "unsubscribed",
        origin: at(file, 3),
      },
      {
        kind: "customer",
        email: "buyer5@example.com",
        name: "Zoë Müller-Øster",
        marketing: "subscribed",
        origin: at(file, 4),
      },
      { kind: "customer", email: "lead1@example.com", name: null, marketing: "unknown", origin: at(file, 5) },
      {
        kind: "customer",
        email: "buyer7@example.com",
        name: "Кочергина Дарья",
        marketing: "unknown",
        origin: at(file, 6),
      },
    ]);
  });

  it("reports unknown columns, and streams 100,000 rows", async () => {
    const header = "identifier,name,email,status,source";
    const items = await readAll(
      lemonSqueezySubscribersCsv.read("s.csv", bodyOf(`${header}\nx,,a@example.com,subscribed,web\n`)),
    );
    expect(items[0]).toEqual({ kind: "notice", file: "s.csv", unknownColumns: ["source"], notes: [] });
    const progress = { produced: 0 };
    const body = generatedCsv(
      header,
      (i) => `s${i},Name ${i},s${i}@example.com,subscribed,web`,
      100_000,
      progress,
    );
    const { counts, producedAtFirstRecord } = await countStreamed(
      lemonSqueezySubscribersCsv.read("big.csv", body),
      progress,
    );
    expect(counts.get("customer")).toBe(100_000);
    expect(producedAtFirstRecord).toBeLessThan(10_000);
  });
});
