import { describe, expect, it } from "vitest";
import { payhipLicenseVerifyResponses, payhipWebhookEvents } from "./payhip";
import { bodyOf, importError, ofKind, readAll, readFixture } from "./reader-testing";

const file = "webhook-events.json";
const at = (line: number, name = file) => ({ file: name, line });

async function readEvents(events: unknown[]) {
  return readAll(payhipWebhookEvents.read("events.json", bodyOf(JSON.stringify(events))));
}

const paid = {
  id: "T1",
  email: "a@example.com",
  currency: "USD",
  price: 2000,
  items: [{ product_id: "1", product_name: "P", product_key: "Pk", quantity: "1" }],
  date: 1762179725,
  type: "paid",
  signature: "x",
};

describe("Payhip webhook events", () => {
  it("says first what it did with refund and membership events", async () => {
    const items = await readFixture(payhipWebhookEvents, "payhip", file);
    expect(items[0]).toEqual({
      kind: "notice",
      file,
      unknownColumns: [],
      notes: [
        "Refund events were applied to the sales they refund (item 4)",
        "Membership events came over as customers only: Payhip's subscription events carry no price or billing interval, so invite these members to your membership by hand (2 items: items 5, 6)",
      ],
    });
    expect(ofKind(items, "problem")).toEqual([]);
  });

  it("writes a sale refunded later in the file once, as refunded", async () => {
    const items = await readFixture(payhipWebhookEvents, "payhip", file);
    expect(ofKind(items, "order").filter((order) => order.externalId === "PhX1aaaaa1")).toEqual([
      {
        kind: "order",
        externalId: "PhX1aaaaa1",
        productExternalId: "PxIc",
        productTitle: "Pixel Icons Pack",
        email: "buyer1@example.com",
        buyerName: null,
        amountCents: 2500,
        currency: "usd",
        discountCode: null,
        discountCents: 0,
        status: "refunded",
        refundedCents: 2500,
        createdAt: "2025-11-03T14:22:05.000Z",
        licenseKey: null,
        origin: at(1),
      },
    ]);
  });

  it("reads an EUR sale with VAT, a coupon, a licence key, a quoted product name and no consent", async () => {
    const items = await readFixture(payhipWebhookEvents, "payhip", file);
    const second = items.filter((item) => item.kind !== "notice" && item.origin.line === 2);
    expect(second).toEqual([
      {
        kind: "product",
        externalId: "LrPr",
        title: 'Lightroom Presets "Pro", 2025 edition',
        description: "",
        // 21.42 paid − 3.42 VAT + 6.00 coupon: the price before both.
        priceCents: 2400,
        currency: "eur",
        priceMode: "fixed",
        suggestedPriceCents: null,
        productKind: "one_time",
        issueLicenseKeys: true,
        origin: at(2),
      },
      { kind: "customer", email: "buyer2@example.com", name: null, marketing: "unsubscribed", origin: at(2) },
      {
        kind: "order",
        externalId: "PhX1aaaaa2",
        productExternalId: "LrPr",
        productTitle: 'Lightroom Presets "Pro", 2025 edition',
        email: "buyer2@example.com",
        buyerName: null,
        amountCents: 2142,
        currency: "eur",
        discountCode: "SPRING25",
        discountCents: 600,
        status: "completed",
        refundedCents: 0,
        createdAt: "2025-11-04T08:01:59.000Z",
        licenseKey: "Q7RM2-XK4PD-9TNVB-H3WJC",
        origin: at(2),
      },
    ]);
  });

  it("splits a GBP cart of two products (one with a Cyrillic name) into one order per product", async () => {
    const items = await readFixture(payhipWebhookEvents, "payhip", file);
    const orders = ofKind(items, "order").filter((order) => order.externalId.startsWith("PhX1aaaaa3"));
    expect(
      orders.map((o) => [
        o.externalId,
        o.productExternalId,
        o.productTitle,
        o.amountCents,
        o.currency,
        o.email,
      ]),
    ).toEqual([
      ["PhX1aaaaa3-1", "PxIc", "Pixel Icons Pack", 3000, "gbp", "zoë.buyer3@example.com"],
      ["PhX1aaaaa3-2", "RuCv", "Руководство по цвету", 0, "gbp", "zoë.buyer3@example.com"],
    ]);
    // Only ever sold in a cart with another product: its price is not known.
    expect(ofKind(items, "product").find((p) => p.externalId === "RuCv")?.priceCents).toBe(0);
  });

  it("brings subscribers as customers with their consent and full UTF-8 name", async () => {
    const items = await readFixture(payhipWebhookEvents, "payhip", file);
    expect(ofKind(items, "customer").slice(-2)).toEqual([
      {
        kind: "customer",
        email: "buyer5@example.com",
        name: 'Zoë O\'Neil, "Jr." Müller-Øster',
        marketing: "subscribed",
        origin: at(5),
      },
      {
        kind: "customer",
        email: "buyer6@example.com",
        name: "Дарья Кочергина",
        marketing: "unsubscribed",
        origin: at(6),
      },
    ]);
    expect(ofKind(items, "subscription")).toEqual([]);
  });

  it("reads a partial refund as completed with the amount refunded, and a lone refund event as its sale", async () => {
    const items = await readEvents([
      paid,
      {
        ...paid,
        type: "refunded",
        amount_refunded: 500,
        date_refunded: 1762430000,
        date_created: 1762179725,
      },
      {
        ...paid,
        id: "T2",
        type: "refunded",
        amount_refunded: 2000,
        date_refunded: 1762430000,
        date_created: 1762000000,
      },
    ]);
    expect(ofKind(items, "order").map((o) => [o.externalId, o.status, o.refundedCents, o.createdAt])).toEqual(
      [
        ["T1", "completed", 500, "2025-11-03T14:22:05.000Z"],
        ["T2", "refunded", 2000, "2025-11-01T12:26:40.000Z"],
      ],
    );
  });

  it("reports events it cannot read and keeps reading", async () => {
    const items = await readEvents([
      { ...paid, price: 20.5 },
      { ...paid, id: "T3", items: [] },
      { ...paid, id: "T4", date: "yesterday" },
      { type: "payout" },
      { ...paid, id: "T5" },
    ]);
    expect(ofKind(items, "problem")).toEqual([
      { kind: "problem", origin: at(1, "events.json"), reason: "price is not an amount in cents: '20.5'" },
      {
        kind: "problem",
        origin: at(2, "events.json"),
        reason: "This sale lists no product (items is empty)",
      },
      {
        kind: "problem",
        origin: at(3, "events.json"),
        reason: "date is not a time in Unix seconds: 'yesterday'",
      },
      {
        kind: "problem",
        origin: at(4, "events.json"),
        reason: '"payout" is not a Payhip webhook event this importer reads',
      },
    ]);
    expect(ofKind(items, "order").map((order) => order.externalId)).toEqual(["T5"]);
  });

  it("refuses a file that is not a list of events", async () => {
    const error = await importError(readAll(payhipWebhookEvents.read("e.json", bodyOf('{"data": []}'))));
    expect(error.message).toBe(
      '"e.json" is not a list of Payhip webhook events: it is not a JSON list of events.',
    );
  });
});

describe("Payhip licence verify responses", () => {
  const verifyFile = "license-verify-responses.json";
  const readResponses = (document: unknown) =>
    readAll(payhipLicenseVerifyResponses.read("verify.json", bodyOf(JSON.stringify(document))));
  const response = (data: Record<string, unknown>) => ({
    data: {
      enabled: true,
      product_link: "LrPr",
      license_key: "K1",
      buyer_email: "a@example.com",
      uses: 3,
      date: "2025-11-04T08:01:59+00:00",
      ...data,
    },
  });

  it("gives each key its uses and state, with its product and buyer; an empty response is skipped with a note", async () => {
    const items = await readFixture(payhipLicenseVerifyResponses, "payhip", verifyFile);
    expect(items[0]).toEqual({
      kind: "notice",
      file: verifyFile,
      // The sample's "_comment" is not a response: reported, not read.
      unknownColumns: ["_comment"],
      notes: [
        expect.stringMatching(/^Payhip's verify responses give each licence key its use count/),
        "Skipped keys Payhip did not verify (an empty response: an unknown key) (item 5)",
      ],
    });
    expect(ofKind(items, "problem")).toEqual([]);
    expect(ofKind(items, "license_key")).toEqual([
      {
        kind: "license_key",
        key: "Q7RM2-XK4PD-9TNVB-H3WJC",
        orderExternalId: "",
        productExternalId: "LrPr",
        buyerEmail: "buyer2@example.com",
        uses: 2,
        disabled: false,
        origin: at(2, verifyFile),
      },
      {
        kind: "license_key",
        key: "M4KX8-2PLQ7-ZR5TN-W9CHD",
        orderExternalId: "",
        productExternalId: "LrPr",
        buyerEmail: "buyer3@example.com",
        uses: 1,
        disabled: true,
        origin: at(3, verifyFile),
      },
      {
        kind: "license_key",
        key: "T3NV6-8QWE2-JKD4S-Y7BXF",
        orderExternalId: "",
        productExternalId: "LrPr",
        buyerEmail: "zoë.buyer3@example.com",
        uses: 0,
        disabled: false,
        origin: at(4, verifyFile),
      },
    ]);
  });

  it("reads a list of responses too, and reports fields it does not know without reading them", async () => {
    const items = await readResponses([
      { ...response({ expires_at: "2026-01-01", uses: 7 }), meta: { version: 2 } },
      response({ license_key: "K2", buyer_email: undefined, enabled: false }),
    ]);
    expect(items[0]).toMatchObject({ kind: "notice", unknownColumns: ["meta", "data.expires_at"] });
    expect(
      ofKind(items, "license_key").map((key) => [key.key, key.uses, key.disabled, key.buyerEmail]),
    ).toEqual([
      ["K1", 7, false, "a@example.com"],
      ["K2", 3, true, undefined],
    ]);
  });

  it("reports responses it cannot read and keeps reading", async () => {
    const items = await readResponses({
      K1: response({ uses: -1 }),
      K2: response({ license_key: "K3" }),
      K4: response({ license_key: "K4", enabled: undefined }),
      K5: "yes",
      K6: response({ license_key: "K6", buyer_email: "not an email" }),
      K7: response({ license_key: "K7" }),
    });
    expect(ofKind(items, "problem").map((problem) => [problem.origin.line, problem.reason])).toEqual([
      [1, "data.uses is not a count: '-1'"],
      [2, "The response listed for 'K2' is of another key: 'K3'"],
      [3, "data.enabled is missing: the response does not say whether the key works"],
      [4, "This entry is not a licence verify response"],
      [5, "data.buyer_email is not an email address: 'not an email'"],
    ]);
    expect(ofKind(items, "license_key").map((key) => key.key)).toEqual(["K7"]);
  });

  it("refuses a document of another shape, and is read after the sales whatever the upload order", async () => {
    const error = await importError(readAll(payhipLicenseVerifyResponses.read("v.json", bodyOf('"keys"'))));
    expect(error.message).toBe(
      '"v.json" is not a set of Payhip licence verify responses: it is neither a JSON object of responses by licence key nor a list of responses.',
    );
    expect(payhipLicenseVerifyResponses.readAfterOrders).toBe(true);
  });
});
