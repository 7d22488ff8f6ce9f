import { rm } from "node:fs/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENFORCEMENT_BUYER_MESSAGES, ENFORCEMENT_MESSAGES } from "../../src/contracts/enforcement";
import { OPERATOR_MESSAGES } from "../../src/contracts/operator";
import { ORDER_MESSAGES } from "../../src/contracts/orders";
import { PURCHASE_UNAVAILABLE } from "../../src/contracts/products";
import { operatorSession } from "./support/operators";
import { downloadTokenOf, startFileDownload } from "./support/purchase-downloads";
import { buyProduct, createProduct, readySeller } from "./support/sellers";
import { createTestApp, signUp, type TestApp } from "./support/test-app";
import { fakeWebDist } from "./support/web-dist";

let t: TestApp;
let webDir: string;
let operatorCookie: string;

beforeAll(async () => {
  // A built web app's manifest: the server-rendered pages need one.
  webDir = await fakeWebDist();
  t = await createTestApp({ listen: true, webDistDir: webDir });
  operatorCookie = (await operatorSession(t)).cookie;
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

const post = (url: string, body: unknown, cookie = operatorCookie) =>
  t.request({ method: "POST", url, body, cookie });
const get = (url: string, cookie = operatorCookie) => t.request({ method: "GET", url, cookie });
const page = (url: string, headers: Record<string, string> = {}) =>
  t.request({ method: "GET", url, headers });
const act = (sellerId: string, body: Record<string, unknown>) =>
  post(`/api/operator/sellers/${sellerId}/actions`, body);
const checkout = (productId: string) =>
  t.request({ method: "POST", url: "/api/checkout", body: { productId } });

const emailsTo = (to: string) =>
  t.db.selectFrom("outbox_emails").selectAll().where("to_address", "=", to).orderBy("id").execute();
const auditOf = (sellerId: string) =>
  t.db.selectFrom("audit_log").selectAll().where("seller_id", "=", sellerId).orderBy("id").execute();

/** A seller on the plan with payouts, a store name and one product (or more). */
async function storeWithProducts(count = 1) {
  const seller = await readySeller(t);
  await t.request({
    method: "PUT",
    url: "/api/store-settings",
    cookie: seller.cookie,
    body: { storeName: "Grace's Shop" },
  });
  const products = [];
  for (let index = 0; index < count; index++) {
    products.push(await createProduct(t, seller.cookie, { title: `Product ${index + 1}` }, { cover: false }));
  }
  return { seller, products };
}

describe("who may do what", () => {
  it("a seller reaches no /api/operator route (404, as a path that does not exist); signed out is 401", async () => {
    const seller = await signUp(t);
    const routes: Array<["GET" | "POST", string, unknown?]> = [
      ["GET", "/api/operator/overview"],
      ["GET", "/api/operator/sellers"],
      ["GET", `/api/operator/sellers/${seller.userId}`],
      ["POST", `/api/operator/sellers/${seller.userId}/actions`, { action: "warn", reason: "x" }],
      ["POST", "/api/operator/products/nope/take-down", { reason: "x" }],
      ["POST", "/api/operator/products/nope/reinstate", { reason: "x" }],
      ["GET", "/api/operator/appeals"],
      ["POST", "/api/operator/appeals/nope/answer", { outcome: "uphold", reason: "x" }],
    ];
    for (const [method, url, body] of routes) {
      const asSeller = await t.request({ method, url, body, cookie: seller.cookie });
      expect(asSeller.statusCode, `${method} ${url}`).toBe(404);
      const signedOut = await t.request({ method, url, body });
      expect(signedOut.statusCode, `${method} ${url}`).toBe(401);
    }
    // Nothing was done in the seller's name.
    expect(await auditOf(seller.userId)).toEqual([]);
  });

  it("a seller sees only their own standing and can't appeal another seller's action (404)", async () => {
    const { seller } = await storeWithProducts(0);
    const other = await signUp(t);
    await t.db
      .insertInto("profiles")
      .values({ id: other.userId })
      .onConflict((c) => c.doNothing())
      .execute();
    expect((await act(seller.userId, { action: "restrict", reason: "Spam listings" })).statusCode).toBe(200);
    const mine = await get("/api/standing", seller.cookie);
    expect(mine.json()).toMatchObject({ state: "restricted" });
    const theirs = await get("/api/standing", other.cookie);
    expect(theirs.json()).toEqual({ state: "good", inForce: [], past: [] });
    const actionId = mine.json().inForce[0].id as string;
    const foreign = await post("/api/standing/appeals", { actionId, body: "Let me in" }, other.cookie);
    expect(foreign.statusCode).toBe(404);
    expect(
      await t.db.selectFrom("enforcement_appeals").select("id").where("action_id", "=", actionId).execute(),
    ).toEqual([]);
  });
});

describe("refusals", () => {
  it("a blank reason, an unknown seller or product, reinstating what is in force nowhere", async () => {
    const { seller, products } = await storeWithProducts(1);
    const blank = await act(seller.userId, { action: "warn", reason: "   " });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(OPERATOR_MESSAGES.reasonRequired);
    const blankTakeDown = await post(`/api/operator/products/${products[0]!.id}/take-down`, { reason: "" });
    expect(blankTakeDown.statusCode).toBe(400);

    const unknown = await act("no-such-seller", { action: "suspend", reason: "Fraud" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(ENFORCEMENT_MESSAGES.sellerNotFound);
    expect((await get("/api/operator/sellers/no-such-seller")).statusCode).toBe(404);
    expect((await post("/api/operator/products/no-such-product/take-down", { reason: "x" })).statusCode).toBe(
      404,
    );

    const goodStanding = await act(seller.userId, { action: "reinstate", reason: "Nothing to lift" });
    expect(goodStanding.statusCode).toBe(409);
    expect(goodStanding.json()).toMatchObject({
      code: "good_standing",
      message: ENFORCEMENT_MESSAGES.goodStanding,
    });
    const notTakenDown = await post(`/api/operator/products/${products[0]!.id}/reinstate`, { reason: "x" });
    expect(notTakenDown.statusCode).toBe(409);

    expect((await act(seller.userId, { action: "restrict", reason: "Spam" })).statusCode).toBe(200);
    const again = await act(seller.userId, { action: "restrict", reason: "Spam again" });
    expect(again.json().code).toBe("already_in_force");
    // Refused actions recorded nothing and emailed nothing.
    expect((await auditOf(seller.userId)).map((entry) => entry.action)).toEqual(["seller.restrict"]);
    expect(
      (await emailsTo(seller.email)).filter((email) => /restricted|reinstated/.test(email.subject)),
    ).toHaveLength(1);
  });
});

describe("restrict", () => {
  it("refuses new products and checkout; the pages stay, saying the creator isn't selling", async () => {
    const { seller, products } = await storeWithProducts(1);
    const productId = products[0]!.id;
    expect((await page(`/product/${productId}`)).statusCode).toBe(200);
    const restricted = await act(seller.userId, {
      action: "restrict",
      reason: "Misleading listings",
      reportId: "r-1",
    });
    expect(restricted.statusCode, restricted.body).toBe(200);
    expect(restricted.json().standing).toMatchObject({ state: "restricted" });

    const create = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: seller.cookie,
      body: { title: "New", price: "5.00", inventoryType: "unlimited", files: [] },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json()).toMatchObject({
      code: "seller_restricted",
      message: ENFORCEMENT_MESSAGES.restricted,
    });

    const buy = await checkout(productId);
    expect(buy.statusCode).toBe(409);
    expect(buy.json().message).toBe(ORDER_MESSAGES.notPurchasable);

    const productPage = await page(`/product/${productId}`);
    expect(productPage.statusCode).toBe(200);
    expect(productPage.body).toContain(PURCHASE_UNAVAILABLE.sellerPaused.replace("'", "&#x27;"));
    expect((await page(`/store/${seller.userId}`)).statusCode).toBe(200);

    // The seller still reaches their settings, standing and the sales CSV export.
    expect((await get("/api/standing", seller.cookie)).statusCode).toBe(200);
    expect((await get("/api/orders/export.csv", seller.cookie)).statusCode).toBe(200);

    const [entry] = await auditOf(seller.userId);
    expect(entry).toMatchObject({
      action: "seller.restrict",
      reason: "Misleading listings",
      report_id: "r-1",
    });
    const [email] = await emailsTo(seller.email).then((all) =>
      all.filter((e) => e.subject.includes("restricted")),
    );
    expect(email?.text).toContain("Misleading listings");
    expect(email?.text).toContain("/settings/standing");
    expect(email?.text).toContain("/policy/enforcement");

    // Reinstated: selling again.
    expect((await act(seller.userId, { action: "reinstate", reason: "Listings fixed" })).statusCode).toBe(
      200,
    );
    expect((await checkout(productId)).statusCode).toBe(200);
    expect((await emailsTo(seller.email)).some((e) => e.subject === "Your Flatfee store is reinstated")).toBe(
      true,
    );
  });
});

describe("suspend", () => {
  it("pages say the store is unavailable (403, in the buyer's language), checkout is refused, buyers keep downloads unless revoked", async () => {
    const { seller, products } = await storeWithProducts(1);
    const productId = products[0]!.id;
    const orderId = await buyProduct(t, productId, "buyer@example.com");
    const token = await downloadTokenOf(t, orderId);
    // Kept before the suspension: the change drops it.
    expect((await page(`/product/${productId}`)).statusCode).toBe(200);
    expect((await page(`/store/${seller.userId}`)).statusCode).toBe(200);

    expect(
      (await act(seller.userId, { action: "suspend", reason: "Selling stolen courses" })).statusCode,
    ).toBe(200);
    const productPage = await page(`/product/${productId}`);
    expect(productPage.statusCode).toBe(403);
    expect(productPage.headers["cache-control"]).toBe("no-store");
    expect(productPage.body).toContain("This store is unavailable");
    expect(productPage.body).toContain("/policy/enforcement");
    const storePage = await page(`/store/${seller.userId}`, { "accept-language": "es" });
    expect(storePage.statusCode).toBe(403);
    expect(storePage.body).toContain("Esta tienda no está disponible");
    expect((await page(`/store/${seller.userId}`, { "accept-language": "ja" })).body).toContain(
      "このストアはご利用いただけません",
    );

    const buy = await checkout(productId);
    expect(buy.statusCode).toBe(403);
    expect(buy.json()).toMatchObject({
      code: "store_unavailable",
      message: ENFORCEMENT_BUYER_MESSAGES.storeUnavailable,
    });
    const form = await t.request({
      method: "POST",
      url: `/product/${productId}/buy`,
      body: "",
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    });
    expect(form.statusCode).toBe(403);
    expect(form.body).toContain("This store is unavailable");

    expect((await page("/sitemap.xml")).body).not.toContain(seller.userId);

    // Buyers keep their downloads by default.
    expect((await startFileDownload(t, token)).statusCode).toBe(200);

    // Suspended again, now revoking downloads.
    const revoke = await act(seller.userId, {
      action: "suspend",
      reason: "Malware in files",
      revokeDownloads: true,
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    const refused = await startFileDownload(t, token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(ENFORCEMENT_BUYER_MESSAGES.downloadsRevoked);
    const suspensionEmails = (await emailsTo(seller.email)).filter((e) => e.subject.includes("suspended"));
    expect(suspensionEmails).toHaveLength(2);
    expect(suspensionEmails[1]!.text).toContain("download links have been stopped");

    // The seller still signs in and reaches their standing and export.
    expect((await get("/api/standing", seller.cookie)).json()).toMatchObject({ state: "suspended" });
    expect((await get("/api/orders/export.csv", seller.cookie)).statusCode).toBe(200);

    expect((await act(seller.userId, { action: "reinstate", reason: "Cleared on review" })).statusCode).toBe(
      200,
    );
    expect((await page(`/product/${productId}`)).statusCode).toBe(200);
    expect((await page(`/store/${seller.userId}`)).statusCode).toBe(200);
    expect((await startFileDownload(t, token)).statusCode).toBe(200);
    expect((await auditOf(seller.userId)).map((entry) => entry.action)).toEqual([
      "seller.suspend",
      "seller.suspend",
      "seller.reinstate",
    ]);
  });
});

describe("take down one product", () => {
  it("that product's page is unavailable and it can't be bought; the store's other products are fine", async () => {
    const { seller, products } = await storeWithProducts(2);
    const [down, kept] = [products[0]!.id, products[1]!.id];
    expect((await page(`/product/${down}`)).statusCode).toBe(200);
    const response = await post(`/api/operator/products/${down}/take-down`, {
      reason: "Infringes a registered trademark",
      reportId: "r-9",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().standing.inForce).toMatchObject([
      { kind: "take-down", productId: down, reportId: "r-9" },
    ]);

    const downPage = await page(`/product/${down}`, { "accept-language": "de" });
    expect(downPage.statusCode).toBe(403);
    expect(downPage.body).toContain("Dieses Produkt ist nicht verfügbar");
    expect((await checkout(down)).json()).toMatchObject({ code: "product_unavailable" });
    expect((await page(`/product/${kept}`)).statusCode).toBe(200);
    expect((await checkout(kept)).statusCode).toBe(200);
    const store = await page(`/store/${seller.userId}`);
    expect(store.statusCode).toBe(200);
    expect(store.body).toContain(`/product/${kept}`);
    expect(store.body).not.toContain(`/product/${down}`);
    const embed = await get(`/api/embed/products?ids=${down},${kept}`);
    if (embed.statusCode === 200) {
      expect(JSON.stringify(embed.json())).toContain('"missing"');
    }

    const sitemap = (await page("/sitemap.xml")).body;
    expect(sitemap).toContain(`/product/${kept}`);
    expect(sitemap).not.toContain(`/product/${down}`);

    const again = await post(`/api/operator/products/${down}/take-down`, { reason: "Twice" });
    expect(again.statusCode).toBe(409);

    const detail = await get(`/api/operator/sellers/${seller.userId}`);
    expect(detail.json().products).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: down, takenDown: true }),
        expect.objectContaining({ id: kept, takenDown: false }),
      ]),
    );

    expect(
      (await post(`/api/operator/products/${down}/reinstate`, { reason: "Licence shown" })).statusCode,
    ).toBe(200);
    expect((await page(`/product/${down}`)).statusCode).toBe(200);
    expect((await auditOf(seller.userId)).map((e) => [e.action, e.product_id, e.report_id])).toEqual([
      ["product.take-down", down, "r-9"],
      ["product.reinstate", down, null],
    ]);
    const subjects = (await emailsTo(seller.email)).map((email) => email.subject);
    expect(subjects).toEqual(
      expect.arrayContaining(["A product of yours was taken down", "Your product is reinstated"]),
    );
  });
});

describe("one transaction", () => {
  it("an action whose email can't be written leaves no action and no audit entry behind", async () => {
    const { seller } = await storeWithProducts(0);
    await sql`
      create function refuse_outbox() returns trigger language plpgsql as $$
      begin raise exception 'outbox refused'; end; $$;
      create trigger refuse_outbox before insert on outbox_emails for each row execute function refuse_outbox();
    `.execute(t.db);
    try {
      const response = await act(seller.userId, { action: "suspend", reason: "Fraud" });
      expect(response.statusCode).toBe(500);
    } finally {
      await sql`drop trigger refuse_outbox on outbox_emails; drop function refuse_outbox();`.execute(t.db);
    }
    expect(await auditOf(seller.userId)).toEqual([]);
    expect(
      await t.db
        .selectFrom("enforcement_actions")
        .select("id")
        .where("seller_id", "=", seller.userId)
        .execute(),
    ).toEqual([]);
    expect((await page(`/store/${seller.userId}`)).statusCode).toBe(200);
  });
});

describe("appeals", () => {
  it("one open appeal per action; operators uphold or reinstate from the queue, audited and emailed", async () => {
    const { seller, products } = await storeWithProducts(1);
    const productId = products[0]!.id;
    await post(`/api/operator/products/${productId}/take-down`, {
      reason: "Reported as stolen",
      reportId: "r-42",
    });
    const standing = (await get("/api/standing", seller.cookie)).json();
    const actionId = standing.inForce[0].id as string;

    const blank = await post("/api/standing/appeals", { actionId, body: " " }, seller.cookie);
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(ENFORCEMENT_MESSAGES.appealRequired);
    const first = await post(
      "/api/standing/appeals",
      { actionId, body: "I wrote it myself." },
      seller.cookie,
    );
    expect(first.statusCode, first.body).toBe(201);
    const second = await post("/api/standing/appeals", { actionId, body: "Please!" }, seller.cookie);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: "appeal_open", message: ENFORCEMENT_MESSAGES.appealOpen });

    const queue = (await get("/api/operator/appeals")).json().appeals as Array<{
      id: string;
      sellerId: string;
    }>;
    const appeal = queue.find((entry) => entry.sellerId === seller.userId)!;
    expect(appeal).toMatchObject({
      body: "I wrote it myself.",
      action: { kind: "take-down", reportId: "r-42" },
    });

    const blankAnswer = await post(`/api/operator/appeals/${appeal.id}/answer`, {
      outcome: "uphold",
      reason: "",
    });
    expect(blankAnswer.statusCode).toBe(400);
    const upheld = await post(`/api/operator/appeals/${appeal.id}/answer`, {
      outcome: "uphold",
      reason: "The original author sent proof.",
    });
    expect(upheld.statusCode, upheld.body).toBe(200);
    expect(
      (await post(`/api/operator/appeals/${appeal.id}/answer`, { outcome: "reinstate", reason: "x" })).json(),
    ).toMatchObject({ code: "appeal_answered" });
    expect((await page(`/product/${productId}`)).statusCode).toBe(403);

    // Answered: the seller may appeal again, and this time it is granted.
    const third = await post(
      "/api/standing/appeals",
      { actionId, body: "Here is my licence." },
      seller.cookie,
    );
    expect(third.statusCode).toBe(201);
    const next = (
      (await get("/api/operator/appeals")).json().appeals as Array<{ id: string; sellerId: string }>
    ).find((entry) => entry.sellerId === seller.userId)!;
    const granted = await post(`/api/operator/appeals/${next.id}/answer`, {
      outcome: "reinstate",
      reason: "Licence checks out.",
    });
    expect(granted.statusCode).toBe(200);
    expect((await page(`/product/${productId}`)).statusCode).toBe(200);
    const after = (await get("/api/standing", seller.cookie)).json();
    expect(after.state).toBe("good");
    expect(after.inForce).toEqual([]);
    expect(after.past[0].appeals.map((a: { status: string }) => a.status)).toEqual(["reinstated", "upheld"]);

    expect((await auditOf(seller.userId)).map((entry) => entry.action)).toEqual([
      "product.take-down",
      "appeal.file",
      "appeal.uphold",
      "appeal.file",
      "appeal.reinstate",
    ]);
    const subjects = (await emailsTo(seller.email)).map((email) => email.subject);
    expect(subjects).toEqual(
      expect.arrayContaining(["We answered your appeal", "Your product is reinstated"]),
    );
  });
});

describe("the console's reads", () => {
  it("overview figures per currency, seller search by email, store name and id, the seller page", async () => {
    const { seller, products } = await storeWithProducts(1);
    await buyProduct(t, products[0]!.id, "fan@example.com");
    const overview = await get("/api/operator/overview");
    expect(overview.statusCode, overview.body).toBe(200);
    const figures = overview.json();
    expect(figures.payingSellers).toBeGreaterThan(0);
    expect(figures.mrrCents).toBe(figures.payingSellers * 1000);
    expect(figures.months).toHaveLength(12);
    const thisMonth = figures.months.at(-1);
    expect(thisMonth.newSellers).toBeGreaterThan(0);
    expect(thisMonth.gmv).toEqual(expect.arrayContaining([expect.objectContaining({ currency: "usd" })]));

    const byEmail = (
      await get(`/api/operator/sellers?q=${encodeURIComponent(seller.email.slice(0, 12).toUpperCase())}`)
    ).json();
    expect(byEmail.sellers.map((row: { id: string }) => row.id)).toContain(seller.userId);
    const byStore = (await get(`/api/operator/sellers?q=${encodeURIComponent("grace's")}`)).json();
    expect(byStore.sellers.map((row: { id: string }) => row.id)).toContain(seller.userId);
    const byId = (await get(`/api/operator/sellers?q=${seller.userId}`)).json();
    expect(byId.sellers).toEqual([expect.objectContaining({ id: seller.userId, email: seller.email })]);
    const none = (await get("/api/operator/sellers?q=%25")).json();
    expect(none.sellers).toEqual([]);

    const detail = (await get(`/api/operator/sellers/${seller.userId}`)).json();
    expect(detail).toMatchObject({
      email: seller.email,
      storeName: "Grace's Shop",
      plan: { standing: "active" },
      connect: { onboardingComplete: true },
      sales: { count: 1, volume: [{ currency: "usd", amountCents: 1999 }] },
      reportsCount: 0,
      standing: { state: "good" },
    });
    expect(detail.storageBytes).toBeGreaterThan(0);
  });

  it("pages the seller list", async () => {
    for (let index = 0; index < 3; index++)
      await signUp(t).then((s) =>
        t.db
          .insertInto("profiles")
          .values({ id: s.userId })
          .onConflict((c) => c.doNothing())
          .execute(),
      );
    const first = (await get("/api/operator/sellers")).json();
    const seen = new Set(first.sellers.map((row: { id: string }) => row.id));
    let after = first.nextAfter as string | null;
    while (after) {
      const next = (await get(`/api/operator/sellers?after=${encodeURIComponent(after)}`)).json();
      for (const row of next.sellers) {
        expect(seen.has(row.id)).toBe(false);
        seen.add(row.id);
      }
      after = next.nextAfter;
    }
    const total = await t.db
      .selectFrom("profiles")
      .innerJoin("user", "user.id", "profiles.id")
      .select("profiles.id")
      .execute();
    expect(seen.size).toBe(total.length);
  });
});
