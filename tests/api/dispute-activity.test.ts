import { PDFDocument } from "pdf-lib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DISPUTE_LIMITS } from "../../src/contracts/disputes";
import { pruneLicenseVerifications } from "../../src/server/features/licenses/prune-verifications";
import { control } from "./support/emulator-control";
import { pdfText } from "./support/pdf-text";
import { downloadTokenOf } from "./support/purchase-downloads";
import { buyProduct, createProduct, readySeller } from "./support/sellers";
import { APP_URL, createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

// The dispute evidence's activity (docs/disputes.md): each download with the country the proxy's header
// said, and each verification of the license key (license_verifications), newest first cut and counted.
const COUNTRY_HEADER = "cf-ipcountry";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0";
const SOFTWARE = "PixelForge/2.4 (macOS 15)";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let otherSeller: Awaited<ReturnType<typeof readySeller>>;
let product: { id: string };
let otherProduct: { id: string };

beforeAll(async () => {
  t = await createTestApp({ listen: true, buyerCountryHeader: COUNTRY_HEADER });
  [seller, otherSeller] = await Promise.all([readySeller(t), readySeller(t)]);
  [product, otherProduct] = await Promise.all([
    createProduct(t, seller.cookie, { title: "Pixel Forge", issueLicenseKeys: true }, { cover: false }),
    createProduct(t, otherSeller.cookie, { title: "Other Forge", issueLicenseKeys: true }, { cover: false }),
  ]);
});
afterAll(() => t.close());
afterEach(() => t.clock.reset());

let counter = 0;
const orderOf = (orderId: string) =>
  t.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
const keyOf = async (orderId: string) =>
  (
    await t.db
      .selectFrom("license_keys")
      .select("key")
      .where("order_id", "=", orderId)
      .executeTakeFirstOrThrow()
  ).key;
const verificationsOf = (orderId: string) =>
  t.db
    .selectFrom("license_verifications")
    .selectAll()
    .where("order_id", "=", orderId)
    .orderBy("id")
    .execute();

/** What the seller's software sends, from a country the proxy names (or none). */
const verify = (productId: string, key: string, options: { country?: string; increment?: boolean } = {}) =>
  t.app.server.inject({
    method: "POST",
    url: "/api/v1/licenses/verify",
    remoteAddress: `203.0.113.${(++counter % 250) + 1}`,
    headers: {
      "content-type": "application/json",
      "user-agent": SOFTWARE,
      ...(options.country ? { [COUNTRY_HEADER]: options.country } : {}),
    },
    payload: JSON.stringify({
      product_id: productId,
      license_key: key,
      increment_uses_count: options.increment ?? true,
    }),
  });

/** A download through the buyer's link, from a browser in the country the proxy names. */
const download = (token: string, country?: string) =>
  t.request({
    method: "POST",
    url: `/api/downloads/${token}`,
    headers: { "user-agent": BROWSER, ...(country ? { [COUNTRY_HEADER]: country } : {}) },
  });

const buy = (productId = product.id) => buyProduct(t, productId, `activity-${++counter}@example.com`);

/** The buyer's bank disputes the order's payment; resolved once the app has recorded it. */
async function dispute(orderId: string) {
  const order = await orderOf(orderId);
  const intent = await t.stripe.paymentIntents.retrieve(
    order.payment_intent_id!,
    {},
    { stripeAccount: seller.account },
  );
  const opened = await control(t.emulator).dispute(String(intent.latest_charge), "fraudulent");
  await eventually(async () => expect((await orderOf(orderId)).dispute_status).toBe("open"));
  await eventually(async () =>
    expect(
      await t.db.selectFrom("disputes").select("id").where("id", "=", opened.id).executeTakeFirst(),
    ).toBeDefined(),
  );
  return opened.id;
}

async function evidenceOf(disputeId: string) {
  const view = await t.request({ method: "GET", url: `/api/disputes/${disputeId}`, cookie: seller.cookie });
  expect(view.statusCode, view.body).toBe(200);
  const pdf = await t.request({
    method: "GET",
    url: `/api/disputes/${disputeId}/evidence.pdf`,
    cookie: seller.cookie,
  });
  expect(pdf.statusCode).toBe(200);
  return {
    activity: view.json().evidence.access_activity_log as string,
    pages: (await PDFDocument.load(pdf.rawPayload)).getPageCount(),
    pdf: await pdfText(pdf.rawPayload),
  };
}

describe("the download log", () => {
  it("keeps the country the proxy's header says (never the IP), and the evidence and its PDF name it", async () => {
    const orderId = await buy();
    const token = await downloadTokenOf(t, orderId);
    const first = await download(token, "de");
    expect(first.statusCode).toBe(200);
    // The browser fetches the file: the link is used.
    const file = new URL(first.json().url, APP_URL);
    expect((await t.request({ method: "GET", url: `${file.pathname}${file.search}` })).statusCode).toBe(200);
    // The download page's form (no JavaScript) logs the same.
    const form = await t.request({
      method: "POST",
      url: `/download/${token}`,
      body: "",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
        "user-agent": BROWSER,
        [COUNTRY_HEADER]: "JP",
      },
    });
    expect(form.statusCode, form.body).toBe(303);
    // A header the proxy left out, or its "unknown" XX: no country.
    expect((await download(token, "XX")).statusCode).toBe(200);

    const logs = await t.db
      .selectFrom("download_logs")
      .selectAll()
      .where("order_id", "=", orderId)
      .orderBy("id")
      .execute();
    expect(logs.map((log) => log.country)).toEqual(["DE", "JP", null]);
    expect(logs.map((log) => log.user_agent)).toEqual([BROWSER, BROWSER, BROWSER]);
    expect(Object.keys(logs[0]!).some((column) => /ip|address/i.test(column))).toBe(false);

    const { activity, pdf, pages } = await evidenceOf(await dispute(orderId));
    const lines = activity.split("\n");
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d UTC downloaded guide\.pdf from Germany \(DE\) with Mozilla\/5\.0/,
    );
    expect(lines[1]).toMatch(
      /UTC downloaded guide\.pdf \(link issued, not used\) from Japan \(JP\) with Mozilla/,
    );
    // No country known: the line says nothing of one.
    expect(lines[2]).toMatch(/UTC downloaded guide\.pdf \(link issued, not used\) with Mozilla/);
    expect(lines[2]).not.toContain(" from ");
    expect(pages).toBe(1);
    expect(pdf).toContain("downloaded guide.pdf from Germany (DE)");
    expect(pdf).toContain("from Japan (JP)");
  });
});

describe("the license verification log", () => {
  it("logs each check of an existing key with its outcome, use, country and software, and the evidence lists them", async () => {
    const orderId = await buy();
    const key = await keyOf(orderId);
    expect((await verify(product.id, key, { country: "DE" })).json()).toMatchObject({
      success: true,
      uses: 1,
    });
    expect((await verify(product.id, key, { country: "FR", increment: false })).statusCode).toBe(200);
    expect((await verify(product.id, key)).json().uses).toBe(2);

    const disputeId = await dispute(orderId);
    // While disputed the key is suspended: the refusal is logged too.
    expect((await verify(product.id, key, { country: "DE" })).statusCode).toBe(403);

    const rows = await verificationsOf(orderId);
    expect(
      rows.map(({ outcome, increment_uses, uses, country, user_agent, seller_id }) => ({
        outcome,
        increment_uses,
        uses,
        country,
        user_agent,
        seller_id,
      })),
    ).toEqual([
      {
        outcome: "valid",
        increment_uses: true,
        uses: 1,
        country: "DE",
        user_agent: SOFTWARE,
        seller_id: seller.userId,
      },
      {
        outcome: "valid",
        increment_uses: false,
        uses: 1,
        country: "FR",
        user_agent: SOFTWARE,
        seller_id: seller.userId,
      },
      {
        outcome: "valid",
        increment_uses: true,
        uses: 2,
        country: null,
        user_agent: SOFTWARE,
        seller_id: seller.userId,
      },
      {
        outcome: "disputed",
        increment_uses: true,
        uses: 2,
        country: "DE",
        user_agent: SOFTWARE,
        seller_id: seller.userId,
      },
    ]);

    const { activity, pdf, pages } = await evidenceOf(disputeId);
    const lines = activity.split("\n");
    const summary = lines.findIndex((line) => line.startsWith(`License key ${key} issued`));
    expect(summary).toBeGreaterThan(-1);
    expect(lines[summary]).toContain("verified 2 times by the creator's software");
    expect(lines.slice(summary + 1)).toEqual([
      expect.stringMatching(
        /^\d{4}-\d\d-\d\d \d\d:\d\d UTC license key verified by the creator's software from Germany \(DE\): valid, use 1 \(PixelForge\/2\.4 \(macOS 15\)\)$/,
      ),
      expect.stringMatching(/from France \(FR\): valid, checked without counting a use \(PixelForge/),
      expect.stringMatching(/UTC license key verified by the creator's software: valid, use 2 \(PixelForge/),
      expect.stringMatching(
        /from Germany \(DE\): refused, suspended during the payment dispute \(PixelForge/,
      ),
    ]);
    expect(pages).toBe(1);
    expect(pdf).toContain("from Germany (DE): valid, use 1");
    // (The PDF wraps long lines.)
    expect(pdf).toContain("from Germany (DE): refused, suspended during the");
  });

  it("logs a disabled key's and a refunded order's refusals, and nothing for an unknown key", async () => {
    const disabledOrder = await buy();
    const disabledKey = await keyOf(disabledOrder);
    const off = await t.request({
      method: "PATCH",
      url: `/api/licenses/${disabledOrder}`,
      cookie: seller.cookie,
      body: { disabled: true },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await verify(product.id, disabledKey, { country: "BR" })).json().code).toBe("license_disabled");
    expect(await verificationsOf(disabledOrder)).toMatchObject([
      { outcome: "disabled", uses: 0, country: "BR", increment_uses: true },
    ]);

    const refundedOrder = await buy();
    const refundedKey = await keyOf(refundedOrder);
    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${refundedOrder}/refund`,
      cookie: seller.cookie,
    });
    expect(refund.statusCode, refund.body).toBe(204);
    expect((await verify(product.id, refundedKey, { increment: false })).json().code).toBe(
      "license_refunded",
    );
    expect(await verificationsOf(refundedOrder)).toMatchObject([
      { outcome: "refunded", uses: 0, country: null, increment_uses: false },
    ]);

    // The disabled key's refusal is in its sale's evidence.
    const { activity } = await evidenceOf(await dispute(disabledOrder));
    expect(activity).toMatch(/from Brazil \(BR\): refused, the creator had disabled the key/);

    const before = await t.db
      .selectFrom("license_verifications")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow();
    const unknown = await verify(product.id, "7K3M9QXD-H2PZ4R8W-C5VN0T6E-J1BYG3SA", { country: "DE" });
    expect(unknown.statusCode).toBe(404);
    // Another product's key is unknown here too.
    expect((await verify(otherProduct.id, disabledKey)).statusCode).toBe(404);
    const after = await t.db
      .selectFrom("license_verifications")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(before.count));
  });

  it("never shows another seller's verifications", async () => {
    const theirs = await buy(otherProduct.id);
    const theirKey = await keyOf(theirs);
    const otherSoftware = "TheirTool/9.9";
    const response = await t.app.server.inject({
      method: "POST",
      url: "/api/v1/licenses/verify",
      remoteAddress: "203.0.113.251",
      headers: { "content-type": "application/json", "user-agent": otherSoftware, [COUNTRY_HEADER]: "CA" },
      payload: JSON.stringify({ product_id: otherProduct.id, license_key: theirKey }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await verificationsOf(theirs)).toMatchObject([
      { seller_id: otherSeller.userId, outcome: "valid" },
    ]);

    const ours = await buy();
    expect((await verify(product.id, await keyOf(ours), { country: "IT" })).statusCode).toBe(200);
    const disputeId = await dispute(ours);
    const { activity, pdf } = await evidenceOf(disputeId);
    expect(activity).toContain("from Italy (IT): valid, use 1");
    for (const text of [activity, pdf]) {
      expect(text).not.toContain(otherSoftware);
      expect(text).not.toContain("Canada");
    }
    // Nor can the other seller read this dispute's evidence.
    const foreign = await t.request({
      method: "GET",
      url: `/api/disputes/${disputeId}`,
      cookie: otherSeller.cookie,
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe("a long activity", () => {
  /** Verifications of an order's key, one a minute up to now, as the verify route writes them. */
  async function seedVerifications(
    orderId: string,
    count: number,
    fields: { country?: string; user_agent?: string },
  ) {
    const start = t.clock.now().getTime() - count * 60_000;
    await t.db
      .insertInto("license_verifications")
      .values(
        Array.from({ length: count }, (_, index) => ({
          seller_id: seller.userId,
          order_id: orderId,
          outcome: "valid" as const,
          increment_uses: true,
          uses: index + 1,
          country: fields.country ?? null,
          user_agent: fields.user_agent ?? null,
          created_at: new Date(start + index * 60_000),
        })),
      )
      .execute();
  }
  const listedChecks = (activity: string) =>
    activity.split("\n").filter((line) => line.includes("UTC license key verified")).length;

  it("lists the newest 200 verifications and counts the earlier ones; the PDF stays one page and says what it left out", async () => {
    const orderId = await buy();
    await seedVerifications(orderId, 230, {});
    // The newest one, through the route.
    expect((await verify(product.id, await keyOf(orderId), { country: "AT" })).json().uses).toBe(1);

    const { activity, pdf, pages } = await evidenceOf(await dispute(orderId));
    expect(listedChecks(activity)).toBe(DISPUTE_LIMITS.activityListed);
    expect(activity).toMatch(
      /… and 31 earlier verifications, the first \d{4}-\d\d-\d\d \d\d:\d\d UTC, not listed here\./,
    );
    expect(activity.split("\n").at(-1)).toMatch(/from Austria \(AT\): valid, use 1 \(PixelForge/);
    expect(activity.length).toBeLessThanOrEqual(DISPUTE_LIMITS.evidenceFieldMaxLength);

    // One A4 page: the newest checks that fit, the rest counted; the summary and the downloads kept.
    expect(pages).toBe(1);
    const cut = /… and (\d+) earlier verifications/.exec(pdf);
    expect(cut).not.toBeNull();
    const listedInPdf = pdf.split("\n").filter((line) => line.includes("UTC license key verified")).length;
    expect(Number(cut![1]) + listedInPdf).toBe(231);
    expect(Number(cut![1])).toBeGreaterThan(31);
    expect(pdf).toContain("from Austria (AT): valid, use 1");
    expect(pdf).toContain("License key");
    expect(pdf).toContain("No download was made.");
  });

  it("keeps a key's verifications 540 days and its newest 1,000: the rest are pruned, other keys untouched", async () => {
    const looped = await buy();
    const quiet = await buy();
    await seedVerifications(looped, DISPUTE_LIMITS.verificationsKeptPerKey + 50, {});
    await seedVerifications(quiet, 3, {});
    const newestBefore = (await verificationsOf(looped)).slice(-DISPUTE_LIMITS.verificationsKeptPerKey);

    await pruneLicenseVerifications(t.db, t.clock.now());
    const kept = await verificationsOf(looped);
    expect(kept).toHaveLength(DISPUTE_LIMITS.verificationsKeptPerKey);
    expect(kept.map((row) => row.id)).toEqual(newestBefore.map((row) => row.id));
    expect(await verificationsOf(quiet)).toHaveLength(3);

    // 540 days on, everything older than the dispute window is gone, whatever the key.
    const later = new Date(t.clock.now().getTime() + (DISPUTE_LIMITS.verificationLogDays + 1) * 86_400_000);
    await pruneLicenseVerifications(t.db, later);
    expect(await verificationsOf(looped)).toHaveLength(0);
    expect(await verificationsOf(quiet)).toHaveLength(0);
  });

  it("keeps the activity within Stripe's 20,000 characters by listing fewer, counting the rest", async () => {
    const orderId = await buy();
    await seedVerifications(orderId, 210, { country: "DE", user_agent: `Agent/${"x".repeat(380)}` });
    const { activity, pages } = await evidenceOf(await dispute(orderId));
    expect(activity.length).toBeLessThanOrEqual(DISPUTE_LIMITS.evidenceFieldMaxLength);
    const listed = listedChecks(activity);
    expect(listed).toBeLessThan(DISPUTE_LIMITS.activityListed);
    expect(listed).toBeGreaterThan(20);
    const earlier = Number(/… and (\d+) earlier verifications/.exec(activity)?.[1]);
    expect(listed + earlier).toBe(210);
    expect(pages).toBe(1);
  });

  it("cuts the creator's own longer activity text in the PDF by whole lines, saying how many more there are", async () => {
    const disputeId = await dispute(await buy());
    const edited = Array.from(
      { length: 300 },
      (_, index) => `Support chat ${index + 1}: the buyer confirmed the file opened.`,
    );
    const saved = await t.request({
      method: "PATCH",
      url: `/api/disputes/${disputeId}`,
      cookie: seller.cookie,
      body: { evidence: { access_activity_log: edited.join("\n") } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { activity, pdf, pages } = await evidenceOf(disputeId);
    expect(activity).toBe(edited.join("\n"));
    expect(pages).toBe(1);
    expect(pdf).toContain("Support chat 1: the buyer confirmed the file opened.");
    const shown = pdf.split("\n").filter((line) => line.startsWith("Support chat ")).length;
    expect(shown).toBeGreaterThan(5);
    expect(pdf).toContain(
      `… and ${300 - shown} more lines in the activity log submitted with this evidence.`,
    );
  });
});
