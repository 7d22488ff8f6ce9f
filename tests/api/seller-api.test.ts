import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_LIMITS, API_KEY_MESSAGES, API_KEY_PATTERN } from "../../src/contracts/api-keys";
import { EXPORT_API_KINDS } from "../../src/contracts/store-export";
import { API_KEY_RATE } from "../../src/server/features/seller-api/authenticate-api-key";
import { pruneApiRequestLogs } from "../../src/server/features/seller-api/request-log";
import { REQUEST_GUARD_MESSAGES } from "../../src/server/http/request-guards";
import { buyProduct, createProduct, readySeller, subscribedSeller } from "./support/sellers";
import { APP_URL, createTestApp, type signUp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let other: Awaited<ReturnType<typeof signUp>>;
/** Seller A's key, and B's (B is another seller, with no products or sales). */
let keyA: string;
let keyB: string;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  [seller, other] = await Promise.all([readySeller(t), subscribedSeller(t)]);
  keyA = (await createKey(seller.cookie, "Zapier")).secret;
  keyB = (await createKey(other.cookie, "B's bot")).secret;
});
afterAll(async () => {
  await t.close();
});
afterEach(() => t.clock.reset());

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

async function createKey(cookie: string, name: string) {
  const response = await t.request({ method: "POST", url: "/api/api-keys", cookie, body: { name } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as {
    key: { id: string; prefix: string; lastUsedAt: string | null };
    secret: string;
  };
}
const keysOf = async (cookie: string) =>
  (await t.request({ method: "GET", url: "/api/api-keys", cookie })).json().keys as Array<{
    id: string;
    name: string;
    prefix: string;
    lastUsedAt: string | null;
  }>;
const revoke = (cookie: string, id: string) =>
  t.request({ method: "DELETE", url: `/api/api-keys/${id}`, cookie });

/** A call as a seller's server makes it: the key in the Authorization header, no cookie, no Origin. */
function v1(
  key: string | null,
  method: "GET" | "POST",
  url: string,
  headers: Record<string, string> = {},
  ip = "203.0.113.7",
) {
  return t.app.server.inject({
    method,
    url,
    remoteAddress: ip,
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
  });
}

describe("API keys in settings", () => {
  it("shows a new key once, keeps only its hash, and lists it by name and prefix", async () => {
    const created = await createKey(seller.cookie, "  Discord bot  ");
    expect(created.secret).toMatch(API_KEY_PATTERN);
    expect(created.secret.startsWith(created.key.prefix)).toBe(true);
    expect(created.key.prefix).toMatch(/^ff_live_[A-Za-z0-9]{10}$/);
    expect(created.key.lastUsedAt).toBeNull();

    const row = await t.db
      .selectFrom("api_keys")
      .selectAll()
      .where("id", "=", created.key.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe("Discord bot");
    expect(Buffer.from(row.secret_hash)).toEqual(createHash("sha256").update(created.secret).digest());
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(18));

    const listed = await t.request({ method: "GET", url: "/api/api-keys", cookie: seller.cookie });
    expect(listed.body).not.toContain(created.secret);
    expect(listed.json().maxKeys).toBe(API_KEY_LIMITS.maxKeysPerSeller);
    expect(listed.json().keys).toContainEqual(
      expect.objectContaining({ id: created.key.id, name: "Discord bot", prefix: created.key.prefix }),
    );
    // Another seller's list does not have it.
    expect((await keysOf(other.cookie)).map((key) => key.id)).not.toContain(created.key.id);
    await revoke(seller.cookie, created.key.id);
  });

  it("refuses a missing or too long name, strangers, and more than 10 keys", async () => {
    const blank = await t.request({
      method: "POST",
      url: "/api/api-keys",
      cookie: seller.cookie,
      body: { name: "   " },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(API_KEY_MESSAGES.nameRequired);
    const long = await t.request({
      method: "POST",
      url: "/api/api-keys",
      cookie: seller.cookie,
      body: { name: "x".repeat(101) },
    });
    expect(long.json().message).toBe(API_KEY_MESSAGES.nameTooLong);
    const stranger = await t.request({ method: "POST", url: "/api/api-keys", body: { name: "x" } });
    expect(stranger.statusCode).toBe(401);
    expect((await t.request({ method: "GET", url: "/api/api-keys/requests" })).statusCode).toBe(401);

    // Two more than allowed, all at once: exactly the limit is made.
    const limited = await subscribedSeller(t);
    const attempts = await Promise.all(
      Array.from({ length: API_KEY_LIMITS.maxKeysPerSeller + 2 }, (_, i) =>
        t.request({
          method: "POST",
          url: "/api/api-keys",
          cookie: limited.cookie,
          body: { name: `key ${i}` },
        }),
      ),
    );
    const statuses = attempts.map((attempt) => attempt.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(API_KEY_LIMITS.maxKeysPerSeller);
    const refused = attempts.filter((attempt) => attempt.statusCode !== 201);
    expect(refused.map((attempt) => [attempt.statusCode, attempt.json().message])).toEqual([
      [409, API_KEY_MESSAGES.tooMany],
      [409, API_KEY_MESSAGES.tooMany],
    ]);
    const made = attempts.filter((attempt) => attempt.statusCode === 201).map((attempt) => attempt.json());
    expect(await keysOf(limited.cookie)).toHaveLength(API_KEY_LIMITS.maxKeysPerSeller);
    // Revoking one makes room.
    expect((await revoke(limited.cookie, made[0]!.key.id)).statusCode).toBe(204);
    await createKey(limited.cookie, "replacement");
  });

  it("lets only the key's seller revoke it; a revoked key is refused at once", async () => {
    const { key, secret } = await createKey(seller.cookie, "short-lived");
    expect((await v1(secret, "GET", "/api/v1/products")).statusCode).toBe(200);

    const foreign = await revoke(other.cookie, key.id);
    expect(foreign.statusCode).toBe(404);
    expect((await v1(secret, "GET", "/api/v1/products")).statusCode).toBe(200);

    expect((await revoke(seller.cookie, key.id)).statusCode).toBe(204);
    const refused = await v1(secret, "GET", "/api/v1/products");
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ code: "invalid_api_key", message: API_KEY_MESSAGES.invalid });
    expect((await keysOf(seller.cookie)).map((listed) => listed.id)).not.toContain(key.id);
    expect((await revoke(seller.cookie, key.id)).statusCode).toBe(404);
  });
});

describe("authentication", () => {
  it("refuses a missing key, a malformed header and an unknown key with a clear JSON 401", async () => {
    const missing = await v1(null, "GET", "/api/v1/products");
    expect(missing.statusCode).toBe(401);
    expect(missing.headers["content-type"]).toContain("application/json");
    expect(missing.json()).toEqual({ code: "api_key_missing", message: API_KEY_MESSAGES.missing });

    for (const authorization of [`Basic ${keyA}`, "Bearer", "Bearer not-a-key", `Bearer ${keyA}x`, keyA]) {
      const malformed = await v1(null, "GET", "/api/v1/products", { authorization });
      expect(malformed.statusCode, authorization).toBe(401);
      expect(malformed.json()).toEqual({ code: "api_key_malformed", message: API_KEY_MESSAGES.malformed });
    }

    const unknown = `ff_live_${"A".repeat(42)}`;
    expect((await v1(unknown, "GET", "/api/v1/sales")).json().code).toBe("invalid_api_key");
    // The real lookup id with another secret: the hash comparison refuses it.
    const forged = `${keyA.slice(0, 18)}${"z".repeat(32)}`;
    const refused = await v1(forged, "GET", "/api/v1/sales");
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe("invalid_api_key");
    // "bearer" in any case, as HTTP allows.
    expect((await v1(null, "GET", "/api/v1/products", { authorization: `bearer ${keyA}` })).statusCode).toBe(
      200,
    );
  });

  it("takes no session cookie: a signed-in seller without a key is refused", async () => {
    const response = await t.app.server.inject({
      method: "GET",
      url: "/api/v1/products",
      headers: { cookie: seller.cookie },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("api_key_missing");
  });

  it("keeps the cross-site guard: a browser page on another site cannot post, a server can", async () => {
    const orderId = await buyProduct(
      t,
      (await createProduct(t, seller.cookie, {}, { cover: false })).id,
      "x@example.com",
    );
    const crossSite = await v1(keyA, "POST", `/api/v1/sales/${orderId}/reset-downloads`, {
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().message).toBe(REQUEST_GUARD_MESSAGES.crossOrigin);
    expect((await v1(keyA, "POST", `/api/v1/sales/${orderId}/reset-downloads`)).statusCode).toBe(200);
  });

  it("limits each key to 120 calls a minute, with Retry-After; other keys are not affected", async () => {
    const { key, secret } = await createKey(seller.cookie, "busy");
    const now = t.clock.now();
    const windowMs = API_KEY_RATE.windowSeconds * 1000;
    // The calls made so far this minute, but for the last one allowed.
    await t.db
      .insertInto("rate_limit_hits")
      .values({
        key: `${API_KEY_RATE.name}:${key.id}`,
        window_start: new Date(Math.floor(now.getTime() / windowMs) * windowMs),
        hits: API_KEY_LIMITS.requestsPerMinute - 1,
      })
      .execute();
    expect((await v1(secret, "GET", "/api/v1/products")).statusCode).toBe(200);
    const limited = await v1(secret, "GET", "/api/v1/products");
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBe("60");
    expect(limited.json()).toEqual({ code: "rate_limited", message: API_KEY_MESSAGES.rateLimited });
    expect((await v1(keyA, "GET", "/api/v1/products")).statusCode).toBe(200);
    // Two minutes later the window has passed.
    t.clock.advance(2 * MINUTE_MS);
    expect((await v1(secret, "GET", "/api/v1/products")).statusCode).toBe(200);
    await revoke(seller.cookie, key.id);
  });

  it("updates last used at most once a minute", async () => {
    const { key, secret } = await createKey(seller.cookie, "last used");
    const lastUsed = async () =>
      (await keysOf(seller.cookie)).find((listed) => listed.id === key.id)?.lastUsedAt;
    expect(await lastUsed()).toBeNull();

    await v1(secret, "GET", "/api/v1/products");
    const first = await lastUsed();
    expect(first).not.toBeNull();
    expect(Math.abs(new Date(first!).getTime() - Date.now())).toBeLessThan(MINUTE_MS);

    t.clock.advance(30_000);
    await v1(secret, "GET", "/api/v1/products");
    expect(await lastUsed()).toBe(first);

    t.clock.advance(31_000);
    await v1(secret, "GET", "/api/v1/sales");
    const later = await lastUsed();
    expect(new Date(later!).getTime() - new Date(first!).getTime()).toBeGreaterThanOrEqual(61_000);
    await revoke(seller.cookie, key.id);
  });
});

describe("products", () => {
  it("lists the key's seller's products a page at a time and reads one; another seller's is a 404", async () => {
    const { secret } = await createKey(seller.cookie, "products");
    const made = [];
    for (const title of ["First", "Second", "Third"]) {
      made.push(await createProduct(t, seller.cookie, { title }, { cover: false }));
    }
    const pages: string[] = [];
    let before: string | null = null;
    let total = 0;
    do {
      const query: string = before ? `?limit=2&before=${before}` : "?limit=2";
      const page = await v1(secret, "GET", `/api/v1/products${query}`);
      expect(page.statusCode, page.body).toBe(200);
      const body = page.json();
      expect(body.products.length).toBeLessThanOrEqual(2);
      pages.push(...body.products.map((product: { id: string }) => product.id));
      total = body.total;
      before = body.nextCursor;
    } while (before);
    expect(pages).toHaveLength(total);
    expect(new Set(pages).size).toBe(total);
    // Newest first.
    expect(pages.slice(0, 3)).toEqual(made.map((product) => product.id).reverse());

    const one = await v1(secret, "GET", `/api/v1/products/${made[1]!.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: made[1]!.id, title: "Second", priceCents: 1999, unitsSold: 0 });

    const foreign = await v1(keyB, "GET", `/api/v1/products/${made[1]!.id}`);
    expect(foreign.statusCode).toBe(404);
    const theirs = (await v1(keyB, "GET", "/api/v1/products")).json();
    expect(theirs).toEqual({ products: [], total: 0, nextCursor: null });
    expect((await v1(secret, "GET", "/api/v1/products/nope")).statusCode).toBe(404);
    expect((await v1(secret, "GET", "/api/v1/products?limit=0")).statusCode).toBe(400);
  });
});

describe("sales", () => {
  let guide: string;
  let pack: string;
  const orders: string[] = [];
  beforeAll(async () => {
    guide = (await createProduct(t, seller.cookie, { title: "Sales Guide" }, { cover: false })).id;
    pack = (await createProduct(t, seller.cookie, { title: "Sales Pack", price: "5" }, { cover: false })).id;
    orders.push(await buyProduct(t, guide, "ann@example.com"));
    orders.push(await buyProduct(t, pack, "bob@example.com"));
    orders.push(await buyProduct(t, guide, "cy@example.com"));
  });

  it("lists sales newest first, paged, filtered by product and time, and reads one", async () => {
    const all = await v1(keyA, "GET", `/api/v1/sales?productId=${guide}`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().sales.map((sale: { id: string }) => sale.id)).toEqual([orders[2], orders[0]]);
    expect(all.json().sales[0]).toMatchObject({
      id: orders[2],
      productId: guide,
      productTitle: "Sales Guide",
      customerEmail: "cy@example.com",
      amountCents: 1999,
      currency: "usd",
      status: "completed",
      refundedAt: null,
      downloadsUsed: 0,
      downloadsAllowed: 3,
    });

    // One at a time through every sale of the seller: each once, newest first.
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const query: string = before ? `limit=1&before=${before}` : "limit=1";
      const page = (await v1(keyA, "GET", `/api/v1/sales?${query}`)).json();
      expect(page.sales.length).toBeLessThanOrEqual(1);
      seen.push(...page.sales.map((sale: { id: string }) => sale.id));
      before = page.nextCursor;
    } while (before);
    expect(seen.slice(0, 3)).toEqual([...orders].reverse());
    expect(new Set(seen).size).toBe(seen.length);

    // Paging keeps the filter.
    const first = (await v1(keyA, "GET", `/api/v1/sales?productId=${guide}&limit=1`)).json();
    const second = (
      await v1(keyA, "GET", `/api/v1/sales?productId=${guide}&limit=1&before=${first.nextCursor}`)
    ).json();
    expect([first.sales[0].id, second.sales[0].id, second.nextCursor]).toEqual([orders[2], orders[0], null]);

    const created = new Date((await v1(keyA, "GET", `/api/v1/sales/${orders[1]}`)).json().createdAt);
    const at = (ms: number) => encodeURIComponent(new Date(created.getTime() + ms).toISOString());
    const within = (await v1(keyA, "GET", `/api/v1/sales?from=${at(0)}&to=${at(1)}`)).json();
    expect(within.sales.map((sale: { id: string }) => sale.id)).toEqual([orders[1]]);
    const tomorrow = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
    expect((await v1(keyA, "GET", `/api/v1/sales?from=${tomorrow}`)).json().sales).toEqual([]);
    expect((await v1(keyA, "GET", `/api/v1/sales?to=2020-01-01`)).json().sales).toEqual([]);

    const one = await v1(keyA, "GET", `/api/v1/sales/${orders[1]}`);
    expect(one.json()).toMatchObject({ id: orders[1], productId: pack, amountCents: 500 });
  });

  it("says what is wrong with a filter", async () => {
    const cases: Array<[string, string]> = [
      ["from=yesterday", "Dates must look like 2026-01-31 or 2026-01-31T12:00:00Z"],
      ["from=2026-02-30", "Dates must look like 2026-01-31 or 2026-01-31T12:00:00Z"],
      ["from=2026-03-01&to=2026-02-01", "from must be before to"],
      ["limit=101", "limit must be a whole number from 1 to 100"],
      ["limit=abc", "limit must be a whole number from 1 to 100"],
      ["before=garbage", "Invalid cursor"],
    ];
    for (const [query, message] of cases) {
      const response = await v1(keyA, "GET", `/api/v1/sales?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toBe(message);
    }
  });

  it("keeps each seller's sales to their own key", async () => {
    expect((await v1(keyB, "GET", "/api/v1/sales")).json()).toEqual({ sales: [], nextCursor: null });
    expect((await v1(keyB, "GET", `/api/v1/sales?productId=${guide}`)).json().sales).toEqual([]);
    const foreign = await v1(keyB, "GET", `/api/v1/sales/${orders[0]}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ code: "not_found", message: "Order not found" });
  });

  it("resets a sale's downloads for its own seller only", async () => {
    const orderId = orders[1]!;
    await t.db.updateTable("orders").set({ downloads_used: 2 }).where("id", "=", orderId).execute();

    const foreign = await v1(keyB, "POST", `/api/v1/sales/${orderId}/reset-downloads`);
    expect(foreign.statusCode).toBe(404);
    expect((await v1(keyA, "GET", `/api/v1/sales/${orderId}`)).json().downloadsUsed).toBe(2);

    const reset = await v1(keyA, "POST", `/api/v1/sales/${orderId}/reset-downloads`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ id: orderId, downloadsUsed: 0 });
    const stored = await t.db
      .selectFrom("orders")
      .select("downloads_used")
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(stored.downloads_used).toBe(0);
    expect((await v1(keyA, "POST", "/api/v1/sales/nope/reset-downloads")).statusCode).toBe(404);
    // A client that sends an empty JSON object as the body is answered the same.
    const withBody = await t.app.server.inject({
      method: "POST",
      url: `/api/v1/sales/${orderId}/reset-downloads`,
      headers: { authorization: `Bearer ${keyA}`, "content-type": "application/json" },
      payload: "{}",
    });
    expect(withBody.statusCode, withBody.body).toBe(200);
    const emptyJson = await t.app.server.inject({
      method: "POST",
      url: `/api/v1/sales/${orderId}/reset-downloads`,
      headers: { authorization: `Bearer ${keyA}`, "content-type": "application/json" },
      payload: "",
    });
    expect(emptyJson.statusCode).toBe(400);
    expect(emptyJson.json().message).toMatch(/empty/i);
  });

  it("refunds a sale through Stripe for its own seller only, once", async () => {
    const orderId = orders[0]!;
    const foreign = await v1(keyB, "POST", `/api/v1/sales/${orderId}/refund`);
    expect(foreign.statusCode).toBe(404);
    const untouched = await t.db
      .selectFrom("orders")
      .select("status")
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(untouched.status).toBe("completed");

    const refunded = await v1(keyA, "POST", `/api/v1/sales/${orderId}/refund`);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ id: orderId, status: "refunded" });
    expect(refunded.json().refundedAt).not.toBeNull();
    // Through Stripe, on the seller's account, and the buyer is told.
    const { payment_intent_id, stripe_account_id } = await t.db
      .selectFrom("orders")
      .select(["payment_intent_id", "stripe_account_id"])
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    const stripeRefunds = await t.stripe.refunds.list(
      { payment_intent: payment_intent_id! },
      { stripeAccount: stripe_account_id },
    );
    expect(stripeRefunds.data).toHaveLength(1);
    await eventually(async () => {
      const mails = await t.db
        .selectFrom("outbox_emails")
        .select("subject")
        .where("to_address", "=", "ann@example.com")
        .execute();
      expect(mails.some((mail) => /refund/i.test(mail.subject))).toBe(true);
    });
    // The dashboard sees it too.
    const dashboard = await t.request({ method: "GET", url: "/api/orders", cookie: seller.cookie });
    expect(dashboard.json().sales.find((sale: { id: string }) => sale.id === orderId).status).toBe(
      "refunded",
    );

    const again = await v1(keyA, "POST", `/api/v1/sales/${orderId}/refund`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("already_refunded");
  });
});

describe("request log", () => {
  it("logs every call with a key for its seller, newest first, and forgets it after 30 days", async () => {
    const { key, secret } = await createKey(seller.cookie, "Logged tool");
    await v1(secret, "GET", "/api/v1/products?limit=1");
    await v1(secret, "GET", "/api/v1/sales/nope");
    await eventually(async () => {
      const log = (
        await t.request({ method: "GET", url: "/api/api-keys/requests", cookie: seller.cookie })
      ).json();
      expect(log.requests.slice(0, 2)).toMatchObject([
        {
          keyName: "Logged tool",
          keyPrefix: key.prefix,
          method: "GET",
          path: "/api/v1/sales/nope",
          status: 404,
        },
        { keyName: "Logged tool", method: "GET", path: "/api/v1/products", status: 200 },
      ]);
    });
    const theirs = (
      await t.request({ method: "GET", url: "/api/api-keys/requests", cookie: other.cookie })
    ).json();
    expect(theirs.requests.map((entry: { keyPrefix: string }) => entry.keyPrefix)).not.toContain(key.prefix);

    await revoke(seller.cookie, key.id);
    await pruneApiRequestLogs(t.db, new Date(Date.now() + 31 * DAY_MS));
    expect(await t.db.selectFrom("api_request_logs").select("id").execute()).toEqual([]);
    const revokedRows = await t.db
      .selectFrom("api_keys")
      .select("id")
      .where("revoked_at", "is not", null)
      .execute();
    expect(revokedRows).toEqual([]);
    // Keys still in use stay.
    expect((await v1(keyA, "GET", "/api/v1/products")).statusCode).toBe(200);
  });
});

describe("OpenAPI document", () => {
  it("is public JSON listing every route, with each answer's schema", async () => {
    const response = await t.app.server.inject({ method: "GET", url: "/api/v1/openapi.json" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("application/json");
    const document = JSON.parse(response.body);
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers).toEqual([{ url: APP_URL }]);
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        "GET /api/v1/products",
        "GET /api/v1/products/{id}",
        "GET /api/v1/sales",
        "GET /api/v1/sales/{id}",
        "POST /api/v1/sales/{id}/refund",
        "POST /api/v1/sales/{id}/reset-downloads",
        "POST /api/v1/licenses/verify",
        "GET /api/v1/memberships",
        "GET /api/v1/memberships/{id}",
        "POST /api/v1/memberships/{id}/cancel",
        "GET /api/v1/invoices",
        "GET /api/v1/invoices/{id}",
        "GET /api/v1/invoices/{id}/pdf",
        ...EXPORT_API_KINDS.map((kind) => `GET /api/v1/export/${kind}`),
      ].sort(),
    );
    const sales = document.paths["/api/v1/sales"].get;
    expect(sales.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      "limit",
      "before",
      "productId",
      "from",
      "to",
    ]);
    expect(Object.keys(sales.responses)).toEqual(["200", "400", "401", "429"]);
    expect(document.paths["/api/v1/sales/{id}/refund"].post.responses).toHaveProperty("409");
    expect(document.paths["/api/v1/licenses/verify"].post.security).toEqual([]);
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });

    // Every $ref points at a schema the document has.
    const refs = [...response.body.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (match) => match[1],
    );
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) expect(document.components.schemas, ref).toHaveProperty(ref!);
    expect(document.components.schemas.Sale.required).toEqual(
      expect.arrayContaining(["id", "productId", "customerEmail", "amountCents", "status", "createdAt"]),
    );
  });
});
