import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PURCHASE_UNAVAILABLE } from "../../src/contracts/products";
import {
  type BusEvent,
  inProcessEventBus,
  PUBLIC_PAGES_CHANGED,
} from "../../src/server/adapters/events/event-bus";
import { PublicPageCache } from "../../src/server/features/public-pages/page-cache";
import { control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The pages' time to live without an event (routes.tsx). */
const TTL_MS = 10_000;
/** A change announced by a webhook shows well before the page would have expired anyway. */
const SOONER_THAN_TTL_MS = 5_000;
/** As the page's HTML has it. */
const PAUSED = PURCHASE_UNAVAILABLE.sellerPaused.replace("'", "&#x27;");

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  // Listening: the emulator's webhooks (a checkout's expiry, a failed renewal) reach the app.
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
});

const page = (url: string, headers: Record<string, string> = {}) =>
  t.request({ method: "GET", url, headers });
const buyForm = (productId: string) =>
  t.request({
    method: "POST",
    url: `/product/${productId}/buy`,
    body: "",
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
  });
const statusOf = async (userId: string) =>
  (
    await t.db
      .selectFrom("subscriptions")
      .select("status")
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow()
  ).status;
/**
 * Waits until the events published so far have come back to the app (at once in one process; through
 * NOTIFY with PostgreSQL), so none of them can drop a page the test then reads.
 */
async function eventsDelivered() {
  const marker = `marker-${Math.random()}`;
  await new Promise<void>((resolve) => {
    const stop = t.events.subscribe(marker, () => {
      stop();
      resolve();
    });
    void t.events.publish(marker, { type: "sales.changed" });
  });
}
const renameStore = (cookie: string, storeName: string) =>
  t.request({ method: "PUT", url: "/api/store-settings", cookie, body: { storeName } });

describe("kept public pages", () => {
  it("are answered from memory: a change no event announces shows only once the page expires", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Inks" }, { cover: false });
    await eventsDelivered();
    const first = await page(`/product/${product.id}`);
    expect(first.body).toContain("Inks</h1>");

    // Behind the app's back: nothing announces it, so the kept page is still what is served.
    await t.db.updateTable("products").set({ title: "Quiet Inks" }).where("id", "=", product.id).execute();
    const kept = await page(`/product/${product.id}`);
    expect(kept.body).toContain("Inks</h1>");
    expect(kept.body).not.toContain("Quiet Inks");
    expect(kept.headers.etag).toBe(first.headers.etag);

    t.clock.advance(TTL_MS + 1);
    try {
      expect((await page(`/product/${product.id}`)).body).toContain("Quiet Inks</h1>");
    } finally {
      t.clock.advance(-(TTL_MS + 1));
    }
  });

  it("show a checkout's hold at once, and its release when Stripe expires the session", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Few Prints", inventoryType: "limited", quantityAvailable: "3" },
      { cover: false },
    );
    const store = `/store/${seller.userId}`;
    expect((await page(`/product/${product.id}`)).body).toContain("Only 3 left in stock");
    expect((await page(store)).body).toContain("3 left");

    const bought = await buyForm(product.id);
    expect(bought.statusCode, bought.body).toBe(303);
    expect((await page(`/product/${product.id}`)).body).toContain("Only 2 left in stock");
    expect((await page(store)).body).toContain("2 left");

    const sessionId = new URL(String(bought.headers.location)).pathname.split("/").pop()!;
    await control(t.emulator).expireCheckout(sessionId);
    await eventually(
      async () => expect((await page(`/product/${product.id}`)).body).toContain("Only 3 left in stock"),
      SOONER_THAN_TTL_MS,
    );
    expect((await page(store)).body).toContain("3 left");
  });

  it("drop a deleted product at once: its page answers 404 and its store no longer lists it", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Gone Soon" }, { cover: false });
    expect((await page(`/product/${product.id}`)).statusCode).toBe(200);
    expect((await page(`/store/${seller.userId}`)).body).toContain("Gone Soon");

    const deleted = await t.request({
      method: "DELETE",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await page(`/product/${product.id}`)).statusCode).toBe(404);
    expect((await page(`/store/${seller.userId}`)).body).not.toContain("Gone Soon");
  });

  it("show a new store name at once on the store page and the seller's product pages", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    expect((await renameStore(seller.cookie, "Blue Hour")).statusCode).toBe(200);
    expect((await page(`/store/${seller.userId}`)).body).toContain("Blue Hour");
    expect((await page(`/product/${product.id}`)).body).toContain("Blue Hour");

    expect((await renameStore(seller.cookie, "Golden Hour")).statusCode).toBe(200);
    expect((await page(`/store/${seller.userId}`)).body).toContain("Golden Hour");
    expect((await page(`/product/${product.id}`)).body).toContain("Golden Hour");
  });

  it("follow the plan: a lapse when the grace period ends (time), a cancellation at once (its webhook)", async () => {
    const lapsing = await readySeller(t);
    const product = await createProduct(t, lapsing.cookie, {}, { cover: false });
    const url = `/product/${product.id}`;
    expect((await page(url)).body).not.toContain(PAUSED);
    const { stripe_subscription_id: subscriptionId } = await t.db
      .selectFrom("subscriptions")
      .select("stripe_subscription_id")
      .where("user_id", "=", lapsing.userId)
      .executeTakeFirstOrThrow();

    await control(t.emulator).renew(subscriptionId, "failed");
    await eventually(async () => expect(await statusOf(lapsing.userId)).toBe("past_due"));
    // In grace, still for sale; nothing announces the end of the grace period: the clock does.
    expect((await page(url)).body).not.toContain(PAUSED);
    t.clock.advance(3 * DAY_MS + 1000);
    try {
      expect((await page(url)).body).toContain(PAUSED);
    } finally {
      t.clock.advance(-(3 * DAY_MS + 1000));
    }

    await control(t.emulator).renew(subscriptionId, "paid");
    await eventually(async () => expect(await statusOf(lapsing.userId)).toBe("active"));
    expect((await page(url)).body).not.toContain(PAUSED);
    await t.stripe.subscriptions.cancel(subscriptionId);
    await eventually(async () => expect((await page(url)).body).toContain(PAUSED), SOONER_THAN_TTL_MS);
  });

  it("are sent in the encoding asked for, compressed once, and 304 for the tag a browser holds", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Encoded" }, { cover: false });
    const url = `/product/${product.id}`;
    const brotli = await page(url, { "accept-encoding": "gzip, deflate, br" });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers.vary).toContain("accept-encoding");
    const html = brotliDecompressSync(brotli.rawPayload).toString();
    expect(html).toContain("Encoded</h1>");

    const gzip = await page(url, { "accept-encoding": "br;q=0, gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(html);

    const plain = await page(url);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(html);
    expect(Number(plain.headers["content-length"])).toBe(Buffer.byteLength(html));

    expect(new Set([brotli.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(1);
    const revalidated = await page(url, {
      "if-none-match": String(plain.headers.etag),
      "accept-encoding": "br",
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
  });
  it("are sent with the headers every answer gets, and the cookies of a session read on the way", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Headed" }, { cover: false });
    const kept = await page(`/product/${product.id}`, { "accept-encoding": "br" });
    expect(kept.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(kept.headers["x-content-type-options"]).toBe("nosniff");
    expect(kept.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60");
    expect(Number(kept.headers["content-length"])).toBe(kept.rawPayload.length);

    // The signed-in landing page reads the session; without the session's cached copy among the
    // cookies, Better Auth reads the database and renews that copy, which must reach the browser.
    const tokenOnly = seller.cookie
      .split("; ")
      .filter((cookie) => !cookie.includes("session_data"))
      .join("; ");
    const landing = await t.request({ method: "GET", url: "/", cookie: tokenOnly });
    expect(landing.statusCode).toBe(200);
    expect(String(landing.headers["set-cookie"])).toContain("session_data=");
  });
});

describe("the page cache itself", () => {
  const rendered =
    (html: string, sellerId = "seller-a") =>
    async () => ({ html, sellerId });
  const newCache = (maxEntries = 10) => {
    const events = inProcessEventBus();
    const cache = new PublicPageCache(events, { now: () => new Date(), ttlMs: 60_000, maxEntries });
    return { events, cache };
  };
  const htmlOf = async (page: Promise<{ bodies: { gzip: Buffer } } | null>) => {
    const finished = await page;
    return finished ? gunzipSync(finished.bodies.gzip).toString() : undefined;
  };

  it("keeps at most maxEntries, dropping the least recently used", async () => {
    const { cache } = newCache(2);
    await cache.page("a", rendered("A"));
    await cache.page("b", rendered("B"));
    await cache.page("a", rendered("A again")); // a is now the most recently used
    await cache.page("c", rendered("C"));
    expect(cache.size).toBe(2);
    expect(await htmlOf(cache.page("a", rendered("A rendered again")))).toBe("A");
    expect(await htmlOf(cache.page("b", rendered("B rendered again")))).toBe("B rendered again");
  });

  it("never keeps a failure or a page that was not found", async () => {
    const { cache } = newCache();
    await expect(cache.page("a", () => Promise.reject(new Error("database down")))).rejects.toThrow(
      "database down",
    );
    expect(await cache.page("b", async () => null)).toBeNull();
    expect(cache.size).toBe(0);
    expect(await htmlOf(cache.page("a", rendered("A")))).toBe("A");
  });

  it("renders a page once for requests that arrive together", async () => {
    const { cache } = newCache();
    let renders = 0;
    const render = async () => {
      renders++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { html: "A", sellerId: "seller-a" };
    };
    const pages = await Promise.all([
      cache.page("a", render),
      cache.page("a", render),
      cache.page("a", render),
    ]);
    expect(renders).toBe(1);
    expect(new Set(pages).size).toBe(1);
  });

  it("drops every page of a seller on any event for them, and does not keep a render the event overtook", async () => {
    const { events, cache } = newCache();
    await cache.page("product:1", rendered("one"));
    await cache.page("store:a", rendered("store"));
    await cache.page("product:2", rendered("other seller", "seller-b"));
    await events.publish("seller-a", { type: "sales.changed" });
    expect(cache.size).toBe(1);
    expect(await htmlOf(cache.page("product:2", rendered("not asked")))).toBe("other seller");

    let release: () => void = () => {};
    const slow = cache.page("product:1", async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { html: "read before the change", sellerId: "seller-a" };
    });
    await events.publish("seller-a", PUBLIC_PAGES_CHANGED);
    release();
    expect(await htmlOf(slow)).toBe("read before the change");
    expect(await htmlOf(cache.page("product:1", rendered("after the change")))).toBe("after the change");
  });

  it("announces page changes to the server's caches only, never to the seller's browsers", async () => {
    const events = inProcessEventBus();
    const browser: BusEvent[] = [];
    const server: Array<[string, BusEvent]> = [];
    events.subscribe("seller-a", (event) => browser.push(event));
    events.subscribeAll((userId, event) => server.push([userId, event]));
    await events.publish("seller-a", PUBLIC_PAGES_CHANGED);
    await events.publish("seller-a", { type: "sales.changed" });
    expect(browser).toEqual([{ type: "sales.changed" }]);
    expect(server).toEqual([
      ["seller-a", { type: "public-pages.changed" }],
      ["seller-a", { type: "sales.changed" }],
    ]);
  });
});
