import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimal } from "../../src/contracts/money";
import {
  quarterOf,
  TAX_REPORT_CSV_HEADER,
  type TaxGuide,
  type TaxReport,
  type TaxReportRow,
} from "../../src/contracts/tax-reports";
import { OrderChanges } from "../../src/server/features/order-lifecycle/order-changes";
import { markRefunded } from "../../src/server/features/refunds/mark-refunded";
import { taxReportDaysStep } from "../../src/server/features/tax-reports/tax-report-days";
import { type CheckoutPayer, control } from "./support/emulator-control";
import { collectTax, createProduct, readySeller } from "./support/sellers";
import { taxRollupOf } from "./support/tax-rollup";
import { createTestApp, signUp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => t.clock.reset());

/** Moves the app's clock to `iso`. */
function setClock(iso: string) {
  t.clock.reset();
  t.clock.advance(new Date(iso).getTime() - t.clock.now().getTime());
}

interface OrderSeed {
  at: string;
  amount: number;
  tax?: number;
  country?: string | null;
  state?: string | null;
  rate?: string | null;
  reason?: string | null;
  reverseCharge?: boolean;
  refundedAt?: string;
}

/** The tax report's step of the order lifecycle, as the app runs it with every sale and refund. */
const taxReportChanges = new OrderChanges([taxReportDaysStep]);

/**
 * Orders written straight to the database, as fulfilment records what Stripe Tax decided, then counted
 * as the order lifecycle does: OrderChanges' tax report step when created, markRefunded on the refund's
 * date (the report and guide read only the roll-up those keep).
 */
async function seedOrders(sellerId: string, orders: OrderSeed[]) {
  const rows = orders.map((order) => ({ order, id: randomUUID() }));
  await t.db
    .insertInto("checkouts")
    .values(
      rows.map(({ id }) => ({
        id: `hold_${id}`,
        stripe_session_id: `cs_${id}`,
        seller_id: sellerId,
        stripe_account_id: "acct_tax",
        product_id: null,
        reservation: "none",
        state: "paid",
        expires_at: new Date(),
      })),
    )
    .execute();
  await t.db
    .insertInto("orders")
    .values(
      rows.map(({ id, order }) => ({
        id: `ord_${id}`,
        stripe_session_id: `cs_${id}`,
        stripe_account_id: "acct_tax",
        seller_id: sellerId,
        product_id: null,
        product_title: "Guide",
        customer_email: "buyer@example.com",
        amount_cents: order.amount,
        settlement_cents: order.amount,
        settlement_currency: "usd",
        tax_cents: order.tax ?? 0,
        tax_rate: order.rate ?? null,
        taxability_reason: order.reason ?? null,
        buyer_country: order.country === undefined ? "DE" : order.country,
        buyer_state: order.state ?? null,
        reverse_charge: order.reverseCharge ?? false,
        status: "completed",
        download_window_ends_at: new Date(),
        created_at: new Date(order.at),
      })),
    )
    .execute();
  for (const { id, order } of rows) {
    await taxReportChanges.created(t.db, {
      orderId: `ord_${id}`,
      sellerId,
      productId: null,
      checkoutId: `hold_${id}`,
      email: "buyer@example.com",
      amountCents: order.amount,
      delivered: true,
      at: new Date(order.at),
    });
    if (order.refundedAt) {
      await markRefunded(t.db, taxReportChanges, { orderId: `ord_${id}` }, new Date(order.refundedAt));
    }
  }
}

async function setHeadOffice(sellerId: string, country: string) {
  await t.db
    .insertInto("store_tax_settings")
    .values({ seller_id: sellerId, head_office_country: country })
    .execute();
}

async function getJson<T>(url: string, cookie: string): Promise<T> {
  const response = await t.request({ method: "GET", url, cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

const rowOf = (report: TaxReport, country: string | null, rate: string | null, state: string | null = null) =>
  report.rows.find((row) => row.country === country && row.taxRate === rate && row.state === state);

const DE_SALE = { amount: 1190, tax: 190, country: "DE", rate: "19", reason: "standard_rated" };

describe("Tax report", () => {
  it("totals a quarter's orders by country, state and rate, with refunds in the refund's quarter", async () => {
    setClock("2026-11-27T12:00:00Z");
    const seller = await signUp(t);
    const other = await signUp(t);
    await seedOrders(seller.userId, [
      // Sold in Q3, refunded in Q4: a sale in Q3, a negative adjustment in Q4.
      { ...DE_SALE, at: "2026-08-10T10:00:00Z", refundedAt: "2026-10-05T10:00:00Z" },
      { ...DE_SALE, at: "2026-10-01T00:00:00Z" },
      { ...DE_SALE, at: "2026-12-31T23:59:59Z" },
      // Sold and refunded in Q4: both.
      { ...DE_SALE, at: "2026-11-01T10:00:00Z", refundedAt: "2026-11-02T10:00:00Z" },
      {
        at: "2026-10-10T10:00:00Z",
        amount: 1200,
        tax: 200,
        country: "FR",
        rate: "20",
        reason: "standard_rated",
      },
      {
        at: "2026-10-11T10:00:00Z",
        amount: 1000,
        country: "DE",
        rate: "0",
        reason: "reverse_charge",
        reverseCharge: true,
      },
      { at: "2026-10-12T10:00:00Z", amount: 1000, country: "IT", reason: "not_collecting" },
      {
        at: "2026-10-13T10:00:00Z",
        amount: 1089,
        tax: 89,
        country: "US",
        state: "NY",
        rate: "8.875",
        reason: "standard_rated",
      },
      {
        at: "2026-10-14T10:00:00Z",
        amount: 1000,
        country: "US",
        state: "CA",
        rate: "0",
        reason: "product_exempt",
      },
      // Before tax collection: no buyer country.
      { at: "2026-10-15T10:00:00Z", amount: 500, country: null },
      // Next quarter.
      { ...DE_SALE, at: "2027-01-01T00:00:00Z" },
    ]);
    await seedOrders(other.userId, [{ ...DE_SALE, at: "2026-10-20T10:00:00Z", amount: 5000, tax: 798 }]);

    const report = await getJson<TaxReport>("/api/tax/report?quarter=2026-Q4", seller.cookie);
    expect(report).toMatchObject({
      quarter: "2026-Q4",
      from: "2026-10-01",
      to: "2026-12-31",
      currency: "usd",
    });
    expect(rowOf(report, "DE", "19")).toEqual({
      country: "DE",
      countryName: "Germany",
      state: null,
      taxRate: "19",
      salesCount: 3,
      netCents: 3000,
      taxCents: 570,
      taxableNetCents: 3000,
      refundsCount: 2,
      refundsNetCents: -2000,
      refundsTaxCents: -380,
      reverseChargeNetCents: 0,
      notCollectedNetCents: 0,
      otherZeroTaxNetCents: 0,
    } satisfies TaxReportRow);
    expect(rowOf(report, "DE", "0")).toMatchObject({
      salesCount: 1,
      netCents: 1000,
      reverseChargeNetCents: 1000,
      taxableNetCents: 0,
    });
    expect(rowOf(report, "IT", null)).toMatchObject({
      countryName: "Italy",
      notCollectedNetCents: 1000,
      taxCents: 0,
    });
    expect(rowOf(report, "US", "8.875", "NY")).toMatchObject({
      netCents: 1000,
      taxCents: 89,
      taxableNetCents: 1000,
    });
    expect(rowOf(report, "US", "0", "CA")).toMatchObject({ otherZeroTaxNetCents: 1000 });
    expect(rowOf(report, null, null)).toMatchObject({
      countryName: "Unknown",
      salesCount: 1,
      netCents: 500,
      otherZeroTaxNetCents: 500,
    });
    expect(report.rows.at(-1)?.country).toBeNull();
    expect(report.rows).toHaveLength(7);
    expect(report.totals).toEqual({
      salesCount: 9,
      netCents: 3000 + 1000 + 1000 + 1000 + 1000 + 1000 + 500,
      taxCents: 570 + 200 + 89,
      taxableNetCents: 3000 + 1000 + 1000,
      refundsCount: 2,
      refundsNetCents: -2000,
      refundsTaxCents: -380,
      reverseChargeNetCents: 1000,
      notCollectedNetCents: 1000,
      otherZeroTaxNetCents: 1500,
    });

    // The refunded Q3 sale is a plain sale in Q3.
    const q3 = await getJson<TaxReport>("/api/tax/report?quarter=2026-Q3", seller.cookie);
    expect(q3.rows).toEqual([
      expect.objectContaining({
        country: "DE",
        salesCount: 1,
        netCents: 1000,
        taxCents: 190,
        refundsCount: 0,
      }),
    ]);
    expect(q3.quarters).toEqual(["2026-Q4", "2026-Q3"]);

    // The current quarter on the app's clock by default.
    const current = await getJson<TaxReport>("/api/tax/report", seller.cookie);
    expect(current.quarter).toBe("2026-Q4");
    expect(current.totals).toEqual(report.totals);

    // The other seller sees only their own sale.
    const theirs = await getJson<TaxReport>("/api/tax/report?quarter=2026-Q4", other.cookie);
    expect(theirs.rows).toHaveLength(1);
    expect(theirs.totals).toMatchObject({ salesCount: 1, netCents: 4202, taxCents: 798, refundsCount: 0 });
    expect(theirs.quarters).toEqual(["2026-Q4"]);

    // The CSV is the page's rows.
    const csv = await t.request({
      method: "GET",
      url: "/api/tax/report.csv?quarter=2026-Q4",
      cookie: seller.cookie,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.headers["content-disposition"]).toContain('filename="tax-report-2026-Q4.csv"');
    const [header, ...lines] = csv.body.trimEnd().split("\n");
    expect(header).toBe(TAX_REPORT_CSV_HEADER.join(","));
    expect(header).toBe(
      "Country code,Country name,State,Rate %,Sales count,Net sales,Tax,Refunds net,Refunds tax,Reverse-charge net,Not-collected net,Other zero-tax net",
    );
    expect(lines).toEqual(
      report.rows.map((row) =>
        [
          row.country ?? "",
          row.countryName,
          row.state ?? "",
          row.taxRate ?? "",
          row.salesCount,
          ...[
            row.netCents,
            row.taxCents,
            row.refundsNetCents,
            row.refundsTaxCents,
            row.reverseChargeNetCents,
            row.notCollectedNetCents,
            row.otherZeroTaxNetCents,
          ].map(centsToDecimal),
        ].join(","),
      ),
    );
    expect(lines).toContain("DE,Germany,,19,3,30.00,5.70,-20.00,-3.80,0.00,0.00,0.00");
  });

  it("answers an empty quarter, refuses a malformed one, and needs a signed-in seller", async () => {
    setClock("2026-11-27T12:00:00Z");
    const seller = await signUp(t);
    const empty = await getJson<TaxReport>("/api/tax/report?quarter=2025-Q1", seller.cookie);
    expect(empty.rows).toEqual([]);
    expect(empty.totals.salesCount).toBe(0);
    expect(empty.quarters).toEqual(["2026-Q4", "2025-Q1"]);
    const bad = await t.request({
      method: "GET",
      url: "/api/tax/report?quarter=2026-Q5",
      cookie: seller.cookie,
    });
    expect(bad.statusCode).toBe(400);
    const anonymous = await t.request({ method: "GET", url: "/api/tax/report.csv" });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("Tax guide", () => {
  it("an EU seller: this year's cross-border EU consumer sales against EUR 10,000", async () => {
    setClock("2026-11-27T12:00:00Z");
    const seller = await signUp(t);
    const other = await signUp(t);
    await setHeadOffice(seller.userId, "DE");
    await seedOrders(seller.userId, [
      { at: "2026-02-01T10:00:00Z", amount: 238_000, tax: 38_000, country: "FR", rate: "20" },
      { at: "2026-03-01T10:00:00Z", amount: 240_000, tax: 40_000, country: "FR", rate: "20" },
      { at: "2026-04-01T10:00:00Z", amount: 269_760, tax: 44_960, country: "AT", rate: "20" },
      // Not counted: domestic, business (reverse charge), refunded, last year, outside the EU.
      { at: "2026-04-02T10:00:00Z", amount: 500_000, tax: 79_832, country: "DE", rate: "19" },
      {
        at: "2026-04-03T10:00:00Z",
        amount: 500_000,
        country: "FR",
        reason: "reverse_charge",
        reverseCharge: true,
      },
      { at: "2026-04-04T10:00:00Z", amount: 500_000, country: "FR", refundedAt: "2026-04-05T10:00:00Z" },
      { at: "2025-12-31T23:00:00Z", amount: 500_000, country: "FR" },
      { at: "2026-04-06T10:00:00Z", amount: 500_000, country: "US", state: "NY" },
    ]);
    await seedOrders(other.userId, [{ at: "2026-05-01T10:00:00Z", amount: 900_000, country: "FR" }]);

    const guide = await getJson<TaxGuide>("/api/tax/guide", seller.cookie);
    expect(guide).toMatchObject({
      sellerCountry: "DE",
      sellerCountrySource: "stripe",
      stripeCountry: "DE",
      year: 2026,
    });
    // $6,248.00 net at 1 EUR = 1.0411 USD: EUR 6,001.34, 60% of EUR 10,000.
    expect(guide.euSeller).toEqual({
      count: 3,
      netCents: 624_800,
      netEurCents: 600_134,
      thresholdEurCents: 1_000_000,
      percentUsed: 60,
    });
    expect(guide.euConsumerSales).toBeNull();
    expect(guide.ukConsumerSales).toMatchObject({ count: 0, firstSaleAt: null });
    expect(guide.collectingIn.map((place) => place.country).sort()).toEqual(["AT", "DE", "FR"]);
  });

  it("a US seller: EU and UK consumer sales since the first one, and US states approaching nexus", async () => {
    setClock("2026-11-27T12:00:00Z");
    const seller = await signUp(t);
    const other = await signUp(t);
    await setHeadOffice(seller.userId, "US");
    await seedOrders(seller.userId, [
      { at: "2025-03-04T09:00:00Z", amount: 1_000, country: "DE", reason: "not_collecting" },
      { at: "2026-05-01T10:00:00Z", amount: 1_200, tax: 200, country: "FR", rate: "20" },
      {
        at: "2026-04-01T10:00:00Z",
        amount: 5_000,
        country: "FR",
        reason: "reverse_charge",
        reverseCharge: true,
      },
      { at: "2026-06-15T10:00:00Z", amount: 1_200, tax: 200, country: "GB", rate: "20" },
      { at: "2026-07-01T10:00:00Z", amount: 1_200, tax: 200, country: "GB", rate: "20" },
      // US: CA reached by amount, TX approaching by transactions (120 of 200), NY far below.
      { at: "2026-03-01T10:00:00Z", amount: 10_000_000, country: "US", state: "CA" },
      ...Array.from({ length: 120 }, () => ({
        at: "2026-06-01T10:00:00Z",
        amount: 1_000,
        country: "US",
        state: "TX",
      })),
      { at: "2026-06-02T10:00:00Z", amount: 1_089, tax: 89, country: "US", state: "NY", rate: "8.875" },
      // Last year's sales don't count toward this year's thresholds.
      ...Array.from({ length: 100 }, () => ({
        at: "2025-06-01T10:00:00Z",
        amount: 1_000,
        country: "US",
        state: "WA",
      })),
    ]);
    await seedOrders(other.userId, [
      { at: "2024-01-01T10:00:00Z", amount: 1_000, country: "DE" },
      ...Array.from({ length: 100 }, () => ({
        at: "2026-06-01T10:00:00Z",
        amount: 1_000,
        country: "US",
        state: "TX",
      })),
    ]);

    const guide = await getJson<TaxGuide>("/api/tax/guide", seller.cookie);
    expect(guide.sellerCountry).toBe("US");
    expect(guide.euSeller).toBeNull();
    expect(guide.euConsumerSales).toEqual({
      count: 2,
      netCents: 2_000,
      firstSaleAt: "2025-03-04T00:00:00.000Z",
    });
    expect(guide.ukConsumerSales).toEqual({
      count: 2,
      netCents: 2_000,
      firstSaleAt: "2026-06-15T00:00:00.000Z",
    });
    expect(guide.usStates).toEqual([
      {
        state: "CA",
        count: 1,
        netCents: 10_000_000,
        salesPercent: 100,
        transactionsPercent: 0,
        status: "reached",
      },
      {
        state: "TX",
        count: 120,
        netCents: 120_000,
        salesPercent: 1,
        transactionsPercent: 60,
        status: "approaching",
      },
    ]);
    expect(guide.usStatesWithSales).toBe(3);
    expect(guide.collectingIn).toEqual(
      expect.arrayContaining([{ country: "US", state: "NY", count: 1, taxCents: 89 }]),
    );

    // A country chosen on the page wins over Stripe's, and says so.
    const chosen = await getJson<TaxGuide>("/api/tax/guide?country=fr", seller.cookie);
    expect(chosen).toMatchObject({ sellerCountry: "FR", sellerCountrySource: "chosen", stripeCountry: "US" });
    expect(chosen.euSeller).toMatchObject({ count: 0, percentUsed: 0 });
    const bad = await t.request({
      method: "GET",
      url: "/api/tax/guide?country=France",
      cookie: seller.cookie,
    });
    expect(bad.statusCode).toBe(400);
  });

  it("a seller without a known country sees where they stand once they pick one", async () => {
    setClock("2026-11-27T12:00:00Z");
    const seller = await signUp(t);
    const guide = await getJson<TaxGuide>("/api/tax/guide", seller.cookie);
    expect(guide).toMatchObject({
      sellerCountry: null,
      sellerCountrySource: "none",
      euSeller: null,
      euConsumerSales: null,
      usStates: [],
    });
  });
});

describe("the roll-up behind the report and guide, through real sales and refunds", () => {
  // An app of its own that listens, so the emulator's webhooks (payments, charge.refunded) reach it.
  let live: TestApp;
  let seller: Awaited<ReturnType<typeof readySeller>>;
  let productId: string;
  beforeAll(async () => {
    live = await createTestApp({ listen: true });
    seller = await readySeller(live);
    await collectTax(live, seller, {
      headOffice: { country: "US", state: "NY" },
      registrations: [
        { country: "IE", type: "oss_non_union" },
        { country: "US", state: "NY", type: "state_sales_tax" },
      ],
    });
    productId = (await createProduct(live, seller.cookie, { price: "20.00" }, { cover: false })).id;
  });
  afterAll(async () => {
    await live?.close();
  });

  /** Pays for the product on the emulator's Checkout as `payer`; the order once fulfilled. */
  async function buy(payer: CheckoutPayer, body: Record<string, unknown> = {}) {
    const response = await live.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId, ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    const sessionId = new URL(response.json().url).pathname.split("/").pop()!;
    await control(live.emulator).payCheckoutAs(sessionId, payer);
    let order: { id: string; amount_cents: number; tax_cents: number } | undefined;
    await eventually(async () => {
      order = await live.db
        .selectFrom("orders")
        .select(["id", "amount_cents", "tax_cents"])
        .where("stripe_session_id", "=", sessionId)
        .executeTakeFirst();
      expect(order).toBeDefined();
    });
    return order!;
  }
  async function liveJson<T>(url: string): Promise<T> {
    const response = await live.request({ method: "GET", url, cookie: seller.cookie });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  }
  const refund = (orderId: string) =>
    live.request({ method: "POST", url: `/api/orders/${orderId}/refund`, cookie: seller.cookie });
  /** Both clocks, the app's and Stripe's, move on together. */
  async function advanceDays(days: number) {
    live.clock.advance(days * DAY_MS);
    await control(live.emulator).advanceClock(days * 24 * 60 * 60);
  }
  const DAY_MS = 24 * 60 * 60 * 1000;
  const GERMAN = {
    email: "anna@example.de",
    address: { country: "DE", postal_code: "10115", line1: "Invalidenstraße 1", city: "Berlin" },
  };

  it("stays equal to the orders after sales, a refund in the same quarter, a sale and a refund in a later one", async () => {
    const firstQuarter = quarterOf(live.clock.now());
    const german = await buy(GERMAN);
    const newYork = await buy({
      email: "ny@example.com",
      address: { country: "US", state: "NY", postal_code: "10001", line1: "1 Main St", city: "New York" },
    });
    await buy({
      email: "kenji@example.jp",
      address: { country: "JP", postal_code: "100-0001", line1: "1-1 Chiyoda", city: "Tokyo" },
    });
    await buy(
      {
        email: "compta@example.fr",
        address: { country: "FR", postal_code: "75001", line1: "1 rue de Rivoli", city: "Paris" },
      },
      { businessName: "Atelier SARL", vatNumber: "FR40303265045" },
    );
    expect(german).toMatchObject({ amount_cents: 2380, tax_cents: 380 });
    expect(newYork).toMatchObject({ amount_cents: 2178, tax_cents: 178 });
    expect((await refund(newYork.id)).statusCode).toBe(204);

    // 100 days on (past the quarter's end, whichever day this runs): a German sale, and the first one refunded.
    await advanceDays(100);
    const laterQuarter = quarterOf(live.clock.now());
    const laterDay = live.clock.now().toISOString().slice(0, 10);
    expect(laterQuarter).not.toBe(firstQuarter);
    await buy({ ...GERMAN, email: "anna2@example.de" });
    expect((await refund(german.id)).statusCode).toBe(204);
    await eventually(async () => expect(await control(live.emulator).pendingEvents()).toBe(0));

    // The kept roll-up is what migration 0028 computes from the orders.
    const rollup = await taxRollupOf(live.db, seller.userId);
    expect(rollup.kept.length).toBeGreaterThan(0);
    expect(rollup.kept).toEqual(rollup.fromOrders);

    // Stripe delivering the payments and refunds again, and the seller refunding again: counted once.
    const emulator = control(live.emulator);
    const repeats = (await emulator.events()).filter((event) =>
      ["checkout.session.completed", "charge.refunded"].includes(event.type),
    );
    expect(repeats.length).toBeGreaterThanOrEqual(7);
    for (const event of repeats) await emulator.redeliver(event.id);
    await eventually(async () => expect(await emulator.pendingEvents()).toBe(0));
    expect((await refund(german.id)).statusCode).toBe(409);
    expect((await taxRollupOf(live.db, seller.userId)).kept).toEqual(rollup.kept);

    // The first quarter: four sales, the New York one refunded in it.
    const first = await liveJson<TaxReport>(`/api/tax/report?quarter=${firstQuarter}`);
    expect(first.rows.map((row) => [row.country, row.state])).toEqual([
      ["DE", null],
      ["FR", null],
      ["JP", null],
      ["US", "NY"],
    ]);
    expect(rowOf(first, "DE", "19")).toMatchObject({
      salesCount: 1,
      netCents: 2000,
      taxCents: 380,
      taxableNetCents: 2000,
      refundsCount: 0,
    });
    expect(first.rows.find((row) => row.country === "FR")).toMatchObject({
      salesCount: 1,
      netCents: 2000,
      taxCents: 0,
      reverseChargeNetCents: 2000,
    });
    expect(first.rows.find((row) => row.country === "JP")).toMatchObject({ notCollectedNetCents: 2000 });
    expect(rowOf(first, "US", "8.875", "NY")).toMatchObject({
      salesCount: 1,
      netCents: 2000,
      taxCents: 178,
      refundsCount: 1,
      refundsNetCents: -2000,
      refundsTaxCents: -178,
    });
    expect(first.totals).toMatchObject({
      salesCount: 4,
      netCents: 8000,
      taxCents: 558,
      taxableNetCents: 4000,
      refundsCount: 1,
      refundsNetCents: -2000,
      refundsTaxCents: -178,
      reverseChargeNetCents: 2000,
      notCollectedNetCents: 2000,
      otherZeroTaxNetCents: 0,
    });

    // The later quarter: its own German sale, and the first quarter's German sale refunded in it.
    const later = await liveJson<TaxReport>(`/api/tax/report?quarter=${laterQuarter}`);
    expect(later.rows).toEqual([
      expect.objectContaining({
        country: "DE",
        taxRate: "19",
        salesCount: 1,
        netCents: 2000,
        taxCents: 380,
        refundsCount: 1,
        refundsNetCents: -2000,
        refundsTaxCents: -380,
      }),
    ]);
    expect(later.quarters).toEqual(expect.arrayContaining([laterQuarter, firstQuarter]));

    // The guide counts kept sales only: the refunded German sale is gone, the later one is the first.
    const guide = await liveJson<TaxGuide>("/api/tax/guide");
    expect(guide.euConsumerSales).toEqual({
      count: 1,
      netCents: 2000,
      firstSaleAt: `${laterDay}T00:00:00.000Z`,
    });
    expect(guide.collectingIn).toEqual([{ country: "DE", state: null, count: 1, taxCents: 380 }]);
  });
});
