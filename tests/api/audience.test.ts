import { CompiledQuery, sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AUDIENCE_LIMITS,
  AUDIENCE_MESSAGES,
  type Customer,
  type CustomersPage,
} from "../../src/contracts/audience";
import { backfillCustomers } from "../../src/server/db/migrations/0017_audience";
import { pageLimit } from "../../src/server/db/page-limit";
import { customerRows } from "../../src/server/features/audience/customers";
import { queueNextBroadcastBatch } from "../../src/server/features/audience/queue-broadcasts";
import { createBroadcast } from "../../src/server/features/audience/send-broadcast";
import { unsubscribeKey, unsubscribeToken } from "../../src/server/features/audience/unsubscribe";
import { buyerLinkKey, libraryToken, readLibraryToken } from "../../src/server/features/orders/buyer-links";
import { buyProduct, createProduct, readySeller } from "./support/sellers";
import { APP_URL, createTestApp, signUp, type TestApp } from "./support/test-app";

const AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let other: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  // A send's batches are queued when the test runs the jobs (send() below, or the batch test by hand).
  t = await createTestApp({ listen: true, jobsInBackground: false });
  [seller, other] = [await readySeller(t), await readySeller(t)];
});
afterAll(async () => {
  await t.close();
});
afterEach(() => t.clock.reset());

let counter = 0;
const buyerEmail = (name: string) => `${name}-${Date.now()}-${++counter}@example.com`;
const get = (url: string, cookie = seller.cookie) => t.request({ method: "GET", url, cookie });
const post = (url: string, body: unknown, cookie = seller.cookie) =>
  t.request({ method: "POST", url, body, cookie });
const refund = async (orderId: string) => {
  const response = await post(`/api/orders/${orderId}/refund`, undefined);
  expect(response.statusCode, response.body).toBe(204);
};
/** A free product's claim: an order without Stripe, as fast as a test needs many buyers. */
async function claimFree(productId: string, email: string) {
  const response = await t.request({ method: "POST", url: "/api/checkout/free", body: { productId, email } });
  expect(response.statusCode, response.body).toBe(202);
}
const customers = async (query = "", cookie = seller.cookie) => {
  const response = await get(`/api/customers${query}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as CustomersPage;
};
const customerOf = async (email: string, cookie = seller.cookie) =>
  (await customers(`?q=${encodeURIComponent(email)}`, cookie)).customers.find((c) => c.email === email);
const mailWithSubject = (subject: string) =>
  t.db.selectFrom("outbox_emails").selectAll().where("subject", "=", subject).orderBy("id").execute();
/** Sends through the API and waits until every batch is queued. */
async function send(body: Record<string, unknown>, cookie = seller.cookie) {
  const response = await post("/api/broadcasts", body, cookie);
  await t.app.jobs.runDue();
  return response;
}
const unsubscribeUrlIn = (text: string) => {
  const match = /http:\/\/localhost:3000(\/unsubscribe\/[\w.-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no unsubscribe link in:\n${text}`);
  return match[1];
};
const unsubscribed = (email: string, sellerId = seller.userId) =>
  t.db
    .selectFrom("email_unsubscribes")
    .selectAll()
    .where("seller_id", "=", sellerId)
    .where("email", "=", email)
    .executeTakeFirst();

describe("customers", () => {
  it("one row per buyer email: first and last purchase, products, total net of refunds", async () => {
    const guide = await createProduct(t, seller.cookie, { title: "Guide", price: "19.99" }, { cover: false });
    const brushes = await createProduct(t, seller.cookie, { title: "Brushes", price: "5" }, { cover: false });
    const loyal = buyerEmail("loyal");
    const refunded = buyerEmail("refunded");
    await buyProduct(t, guide.id, loyal);
    // The same person, however they type their address.
    await buyProduct(t, brushes.id, loyal.toUpperCase());
    const refundMe = await buyProduct(t, guide.id, refunded);
    await refund(refundMe);

    const row = await customerOf(loyal);
    expect(row).toMatchObject({
      ordersCount: 2,
      totalCents: 2499,
      products: ["Guide", "Brushes"],
      unsubscribed: false,
    });
    expect(new Date(row!.lastPurchaseAt).getTime()).toBeGreaterThan(new Date(row!.firstPurchaseAt).getTime());
    expect(await customerOf(refunded)).toMatchObject({ ordersCount: 1, totalCents: 0, products: ["Guide"] });
  });

  it("searches by email, pages with a keyset cursor, and counts every customer", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Free Pack", price: "0" },
      { cover: false },
    );
    const emails = [1, 2, 3, 4, 5].map(() => buyerEmail("pager"));
    for (const email of emails) {
      await claimFree(product.id, email);
      t.clock.advance(1000);
    }
    const first = await customers("?limit=2&q=PAGER-");
    expect(first.customers.map((c) => c.email)).toEqual([emails[4], emails[3]]);
    const seen: Customer[] = [...first.customers];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await customers(`?limit=2&q=pager-&before=${cursor}`);
      seen.push(...page.customers);
      cursor = page.nextCursor;
    }
    expect(seen.map((c) => c.email)).toEqual([...emails].reverse());
    const stored = await t.db
      .selectFrom("customers")
      .select("email")
      .where("seller_id", "=", seller.userId)
      .execute();
    expect(first.total).toBe(stored.length);
    expect(first.total).toBeGreaterThanOrEqual(5);
    expect((await customers(`?q=${encodeURIComponent(emails[2]!)}`)).customers).toHaveLength(1);
    expect((await customers("?q=nobody-like-this")).customers).toEqual([]);

    const bad = await get("/api/customers?before=not-a-cursor");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe("Invalid cursor");
  });

  it("searches anywhere in the email from 3 characters, and the start of it below that", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Search Pack", price: "0" },
      { cover: false },
    );
    const [starts, inside, underscore, lookalike] = [
      `zq.first-${counter}@example.com`,
      `mid.zq-${counter}@example.com`,
      `under_score-${counter}@example.com`,
      `underxscore-${counter}@example.com`,
    ];
    for (const email of [starts, inside, underscore, lookalike]) await claimFree(product.id, email!);
    const found = async (q: string) =>
      (await customers(`?limit=100&q=${encodeURIComponent(q)}`)).customers.map((c) => c.email).sort();

    // Two characters: only emails starting with them (no trigram index can find them anywhere).
    expect(await found("ZQ")).toEqual([starts]);
    expect(await found("z")).toEqual([starts]);
    // Three and more: anywhere in the email, case-insensitively.
    expect(await found("zq-")).toEqual([inside]);
    expect(await found(".ZQ")).toEqual([inside]);
    expect(await found("-zq")).toEqual([]);
    // LIKE's own characters match only themselves.
    expect(await found("r_s")).toEqual([underscore]);
    expect(await found("_")).toEqual([]);
    expect(await found("%")).toEqual([]);
    expect(await found("%score")).toEqual([]);
  });

  it("a search reads the trigram index (3+ characters) or the email prefix index, not every customer", async () => {
    // A store of 20,000 customers, seeded in bulk as the migration's backfill would leave them.
    const big = await signUp(t);
    await sql`
      insert into customers (seller_id, email, first_purchase_at, last_purchase_at, orders_count, completed_count, total_cents)
      select ${big.userId}, 'buyer' || n || '@example.com', now() - n * interval '1 minute',
             now() - n * interval '1 minute', 1, 1, 1999
      from generate_series(1, 20000) n
    `.execute(t.db);
    await sql`analyze customers`.execute(t.db);
    const planOf = async (search: string) => {
      const query = customerRows(t.db, big.userId, { search }).limit(pageLimit(26)).compile();
      const plan = await t.db.executeQuery<Record<string, string>>(
        CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
      );
      return plan.rows.map((row) => Object.values(row)[0]).join("\n");
    };
    expect(await planOf("buyer4242")).toContain("customers_email_trgm_idx");
    expect(await planOf("nobody")).toContain("customers_email_trgm_idx");
    expect(await planOf("zz")).toContain("customers_seller_email_prefix_idx");
    // A term nearly every email holds is faster read most recent first, stopping at a page.
    expect(await planOf("example.com")).toContain("customers_seller_recent_idx");
    expect((await customers("?q=buyer4242", big.cookie)).customers.map((c) => c.email)).toEqual([
      "buyer4242@example.com",
    ]);
    // No orders stand behind these rows: gone again before the backfill test compares roll-ups with orders.
    await t.db.deleteFrom("customers").where("seller_id", "=", big.userId).execute();
  });

  it("a seller sees only their own customers, and must be signed in", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Mine", price: "0" }, { cover: false });
    const email = buyerEmail("scoped");
    await claimFree(product.id, email);
    expect(await customerOf(email)).toBeDefined();
    expect(await customerOf(email, other.cookie)).toBeUndefined();
    expect((await customers("", other.cookie)).total).toBe(0);
    expect((await t.request({ method: "GET", url: "/api/customers" })).statusCode).toBe(401);
    expect((await t.request({ method: "GET", url: "/api/customers/export.csv" })).statusCode).toBe(401);
  });

  it("exports a CSV of the customers (or the search), net of refunds", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: '=Formula, "quoted"', price: "7.50" },
      { cover: false },
    );
    const email = buyerEmail("csv");
    await buyProduct(t, product.id, email);
    const refundMe = await buyProduct(t, product.id, email);
    await refund(refundMe);
    const response = await get(`/api/customers/export.csv?tz=UTC&q=${encodeURIComponent(email)}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = response.body.trim().split("\n");
    expect(lines[0]).toBe("Email,First Purchase,Last Purchase,Orders,Products,Total Spent,Unsubscribed");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${email.replace(/[.]/g, "\\.")},"\\w{3} \\d{2}, \\d{4} \\d{2}:\\d{2}","\\w{3} \\d{2}, \\d{4} \\d{2}:\\d{2}",2,"'=Formula, ""quoted""",7\\.50,no$`,
      ),
    );
    expect((await get("/api/customers/export.csv?tz=Nowhere/Else")).statusCode).toBe(400);
  });

  it("the migration's backfill rolls up existing orders exactly as the live roll-up does", async () => {
    const rollUp = () =>
      Promise.all([
        t.db.selectFrom("customers").selectAll().orderBy(["seller_id", "email"]).execute(),
        t.db.selectFrom("customer_products").selectAll().orderBy(["product_id", "email"]).execute(),
        t.db.selectFrom("customer_counts").selectAll().orderBy("seller_id").execute(),
      ]);
    const live = await rollUp();
    expect(live[0].length).toBeGreaterThan(5);
    await t.db.deleteFrom("customers").execute();
    await t.db.deleteFrom("customer_products").execute();
    await t.db.deleteFrom("customer_counts").execute();
    await backfillCustomers(t.db as never);
    expect(await rollUp()).toEqual(live);
  });
});

describe("emailing buyers", () => {
  it("previews the rendered email: links become links, everything else is escaped", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Preview Pack", price: "0" },
      { cover: false },
    );
    await claimFree(product.id, buyerEmail("preview"));
    const response = await post("/api/broadcasts/preview", {
      kind: "message",
      audience: "product",
      productId: product.id,
      subject: "Big <news>",
      message: "Read <b>this</b> at https://example.com/post?a=1&b=2.\nThanks!",
    });
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json();
    expect(preview.recipients).toBe(1);
    expect(preview.subject).toBe("Big <news>");
    expect(preview.html).toContain("Big &lt;news&gt;");
    expect(preview.html).toContain("Read &lt;b&gt;this&lt;/b&gt; at ");
    expect(preview.html).toContain('<a href="https://example.com/post?a=1&amp;b=2" style="color:#4f46e5">');
    expect(preview.html).not.toContain("<b>this</b>");
    // Nothing was sent by a preview.
    expect(await mailWithSubject("Big <news>")).toEqual([]);
  });

  it("reaches the product's buyers, never refunded or unsubscribed ones, with a working unsubscribe link", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Audience Pack", price: "9" },
      { cover: false },
    );
    const keeper = buyerEmail("keeper");
    const refunded = buyerEmail("gone");
    const quiet = buyerEmail("quiet");
    await buyProduct(t, product.id, keeper);
    await refund(await buyProduct(t, product.id, refunded));
    await buyProduct(t, product.id, quiet);
    // `quiet` unsubscribed from an earlier email's link (no session).
    const link = unsubscribeToken(unsubscribeKey(AUTH_SECRET), seller.userId, quiet);
    expect((await t.request({ method: "POST", url: `/unsubscribe/${link}` })).statusCode).toBe(200);

    const subject = `Thanks ${Date.now()}`;
    const response = await send({
      kind: "message",
      audience: "product",
      productId: product.id,
      subject,
      message: "Hello",
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ kind: "message", productTitle: "Audience Pack", subject });
    const sent = await mailWithSubject(subject);
    expect(sent.map((mail) => mail.to_address)).toEqual([keeper]);
    const list = (await get("/api/broadcasts")).json();
    expect(list.broadcasts.find((b: { subject: string }) => b.subject === subject)).toMatchObject({
      status: "sent",
      recipients: 1,
    });

    // The email's own link: GET asks (and changes nothing), POST unsubscribes, no session needed.
    const path = unsubscribeUrlIn(sent[0]!.text);
    expect(sent[0]!.html).toContain(`href="${APP_URL}${path}"`);
    expect(sent[0]!.headers).toEqual({
      "List-Unsubscribe": `<${APP_URL}${path}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    const page = await t.request({ method: "GET", url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.body).toContain(keeper);
    expect(page.body).toContain(`action="${path}"`);
    expect(await unsubscribed(keeper)).toBeUndefined();
    // A mail app's one-click unsubscribe (RFC 8058).
    const oneClick = await t.request({
      method: "POST",
      url: path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain("You&#x27;re unsubscribed");
    expect(await unsubscribed(keeper)).toBeDefined();
    expect((await customerOf(keeper))?.unsubscribed).toBe(true);
    // Nobody is left to email: refused, and nothing counted.
    const none = await post("/api/broadcasts", {
      kind: "message",
      audience: "product",
      productId: product.id,
      subject: "Again",
      message: "Hi",
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe(AUDIENCE_MESSAGES.noRecipients);
  });

  it("queues a large audience in batches, each buyer once, skipping one who unsubscribes mid-way", async () => {
    const sender = await readySeller(t);
    const product = await createProduct(
      t,
      sender.cookie,
      { title: "Batch Pack", price: "0" },
      { cover: false },
    );
    const emails = [1, 2, 3, 4, 5, 6, 7].map(() => buyerEmail("batch")).sort();
    for (const email of emails) await claimFree(product.id, email);
    const subject = `Batched ${Date.now()}`;
    const broadcast = await createBroadcast(
      t.db,
      sender.userId,
      { kind: "message", audience: "all", subject, message: "One at a time" },
      t.clock.now(),
    );
    const deps = {
      db: t.db,
      outbox: t.outbox,
      appUrl: APP_URL,
      unsubscribeKey: unsubscribeKey(AUTH_SECRET),
      linkKey: buyerLinkKey(AUTH_SECRET),
      now: t.clock.now,
    };
    const progress = () =>
      t.db.selectFrom("broadcasts").selectAll().where("id", "=", broadcast.id).executeTakeFirstOrThrow();
    expect(await queueNextBroadcastBatch(deps, broadcast.id, 3)).toBe(true);
    expect(await progress()).toMatchObject({ status: "sending", recipients_count: 3 });
    // The 5th buyer unsubscribes before their batch.
    await t.request({
      method: "POST",
      url: `/unsubscribe/${unsubscribeToken(deps.unsubscribeKey, sender.userId, emails[4]!)}`,
    });
    expect(await queueNextBroadcastBatch(deps, broadcast.id, 3)).toBe(true);
    // The last batch finds no one left: the broadcast is sent, and its job has nothing more to do.
    expect(await queueNextBroadcastBatch(deps, broadcast.id, 3)).toBe(false);
    expect(await progress()).toMatchObject({ status: "sent", recipients_count: 6 });
    const sent = (await mailWithSubject(subject)).map((mail) => mail.to_address).sort();
    expect(sent).toEqual(emails.filter((email) => email !== emails[4]));
  });

  it("allows 3 emails per seller per 24 hours", async () => {
    const sender = await readySeller(t);
    const product = await createProduct(
      t,
      sender.cookie,
      { title: "Limit Pack", price: "0" },
      { cover: false },
    );
    await claimFree(product.id, buyerEmail("limit"));
    const message = (n: number) => ({
      kind: "message",
      audience: "all",
      subject: `Limit ${n}`,
      message: "Hi",
    });
    // Five at once: the seller's row is locked while the limit is checked, so only three get through.
    const responses = await Promise.all([1, 2, 3, 4, 5].map((n) => send(message(n), sender.cookie)));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 201, 201, 429, 429]);
    const refused = responses.find((response) => response.statusCode === 429)!;
    expect(refused.json().message).toBe(AUDIENCE_MESSAGES.dailyLimit);
    const sent = await t.db
      .selectFrom("broadcasts")
      .select("subject")
      .where("seller_id", "=", sender.userId)
      .execute();
    expect(sent).toHaveLength(AUDIENCE_LIMITS.broadcastsPerDay);
    const refusedSubject = [1, 2, 3, 4, 5]
      .map((n) => `Limit ${n}`)
      .find((s) => !sent.some((b) => b.subject === s))!;
    expect(await mailWithSubject(refusedSubject)).toEqual([]);
    const list = (await get("/api/broadcasts", sender.cookie)).json();
    expect(list.remainingToday).toBe(0);
    expect(list.nextAvailableAt).not.toBeNull();
    t.clock.advance(DAY_MS + 1000);
    expect((await send(message(6), sender.cookie)).statusCode).toBe(201);
  });

  it("sends one 'New in {product}' update per product per day, with the buyer's library link", async () => {
    const sender = await readySeller(t);
    const product = await createProduct(
      t,
      sender.cookie,
      { title: "Sample Library", price: "0" },
      { cover: false },
    );
    const other = await createProduct(
      t,
      sender.cookie,
      { title: "Other Library", price: "0" },
      { cover: false },
    );
    const buyer = buyerEmail("updated");
    await claimFree(product.id, buyer);
    await claimFree(other.id, buyerEmail("not-this-one"));
    const status = (await get(`/api/products/${product.id}/update-email`, sender.cookie)).json();
    expect(status).toEqual({ buyers: 1, nextAvailableAt: null, lastSentAt: null });

    const update = {
      kind: "product-update",
      productId: product.id,
      subject: "20 new loops",
      message: "Enjoy.",
    };
    const sent = await send(update, sender.cookie);
    expect(sent.statusCode, sent.body).toBe(201);
    const [mail, ...more] = await mailWithSubject("New in Sample Library: 20 new loops");
    expect(more).toEqual([]);
    expect(mail?.to_address).toBe(buyer);
    const library = /http:\/\/localhost:3000\/library\?token=([^\s"]+)/.exec(mail!.text)?.[1];
    // The buyer's library token, signed with the app's key; its expiry is counted from when the mail was made
    // (a second may pass before this line runs).
    const token = decodeURIComponent(library!);
    const [payload] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const expected = libraryToken(buyerLinkKey(AUTH_SECRET), buyer, t.clock.now()).split(".")[0]!;
    const expectedClaims = JSON.parse(Buffer.from(expected, "base64url").toString());
    expect(claims).toMatchObject({ purpose: "library", email: buyer.toLowerCase() });
    expect(Math.abs(claims.expiresAt - expectedClaims.expiresAt)).toBeLessThanOrEqual(5);
    expect(readLibraryToken(token, buyerLinkKey(AUTH_SECRET), t.clock.now()).ok).toBe(true);

    const again = await send(update, sender.cookie);
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toBe(AUDIENCE_MESSAGES.productUpdateLimit);
    expect(
      (await get(`/api/products/${product.id}/update-email`, sender.cookie)).json().nextAvailableAt,
    ).not.toBeNull();
    // Another product's update is its own.
    expect((await send({ ...update, productId: other.id }, sender.cookie)).statusCode).toBe(201);
    t.clock.advance(DAY_MS + 1000);
    expect((await send(update, sender.cookie)).statusCode).toBe(201);
  });

  it("refuses bad input with a clear message, and another seller's product", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Refusals", price: "0" },
      { cover: false },
    );
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [
        { kind: "message", audience: "all", subject: " ", message: "Hi" },
        400,
        AUDIENCE_MESSAGES.subjectRequired,
      ],
      [
        { kind: "message", audience: "all", subject: "Hi", message: "" },
        400,
        AUDIENCE_MESSAGES.messageRequired,
      ],
      [
        { kind: "message", audience: "all", subject: "x".repeat(121), message: "Hi" },
        400,
        AUDIENCE_MESSAGES.subjectTooLong,
      ],
      [
        { kind: "message", audience: "all", subject: "Hi", message: "x".repeat(5001) },
        400,
        AUDIENCE_MESSAGES.messageTooLong,
      ],
      [
        { kind: "message", audience: "product", subject: "Hi", message: "Hi" },
        400,
        AUDIENCE_MESSAGES.productRequired,
      ],
      [
        { kind: "product-update", productId: product.id, subject: "", message: "Hi" },
        400,
        AUDIENCE_MESSAGES.headlineRequired,
      ],
    ];
    for (const [body, status, message] of cases) {
      const response = await post("/api/broadcasts", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().message).toBe(message);
    }
    const foreign = await post(
      "/api/broadcasts",
      { kind: "product-update", productId: product.id, subject: "Mine now", message: "Hi" },
      other.cookie,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(AUDIENCE_MESSAGES.productNotFound);
    expect((await get(`/api/products/${product.id}/update-email`, other.cookie)).statusCode).toBe(404);
    expect(
      (
        await t.request({
          method: "POST",
          url: "/api/broadcasts",
          body: { kind: "message", audience: "all", subject: "Hi", message: "Hi" },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      await t.db.selectFrom("broadcasts").select("id").where("subject", "like", "%Mine now%").execute(),
    ).toEqual([]);
  });

  it("a seller's sent list is their own", async () => {
    const list = (await get("/api/broadcasts", other.cookie)).json();
    expect(list).toEqual({
      broadcasts: [],
      remainingToday: AUDIENCE_LIMITS.broadcastsPerDay,
      nextAvailableAt: null,
    });
  });
});

describe("unsubscribe links", () => {
  it("refuse a tampered token, another link's token and another key's, changing nothing", async () => {
    const email = buyerEmail("tamper");
    const good = unsubscribeToken(unsubscribeKey(AUTH_SECRET), seller.userId, email);
    const [payload, mac] = good.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const otherEmail = Buffer.from(JSON.stringify({ ...claims, email: "victim@example.com" })).toString(
      "base64url",
    );
    const forged = [
      `${otherEmail}.${mac}`,
      `${payload}.${mac!.slice(0, -2)}AA`,
      unsubscribeToken(unsubscribeKey("another-secret-another-secret-0123"), seller.userId, email),
      libraryToken(buyerLinkKey(AUTH_SECRET), email, new Date()),
      "nonsense",
    ];
    for (const token of forged) {
      for (const method of ["GET", "POST"] as const) {
        const response = await t.request({ method, url: `/unsubscribe/${token}` });
        expect(response.statusCode, `${method} ${token}`).toBe(400);
        expect(response.body).toContain("This link doesn&#x27;t work");
      }
    }
    expect(
      await t.db
        .selectFrom("email_unsubscribes")
        .selectAll()
        .where("email", "in", [email, "victim@example.com"])
        .execute(),
    ).toEqual([]);
    // The genuine one works, twice over (idempotent), from the page's own form.
    for (let i = 0; i < 2; i++) {
      const response = await t.request({
        method: "POST",
        url: `/unsubscribe/${good}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "",
      });
      expect(response.statusCode).toBe(200);
    }
    expect(await unsubscribed(email)).toBeDefined();
    // Another seller's emails are not affected.
    expect(await unsubscribed(email, other.userId)).toBeUndefined();
  });
});
