import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BusEvent } from "../../src/server/adapters/events/event-bus";
import { SELLER_ANSWER_TTL_MS } from "../../src/server/http/seller-answers";
import { downloadTokenOf, startFileDownload } from "./support/purchase-downloads";
import { buyProduct, createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp, uniqueEmail } from "./support/test-app";

/**
 * The dashboard's stats and first Customer Sales page are kept per seller (http/seller-answers.ts):
 * what the seller's events announce shows at once, the rest within SELLER_ANSWER_TTL_MS.
 */
let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let productId: string;
beforeAll(async () => {
  // Listening: the emulator's webhooks fulfil the orders.
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
  productId = (await createProduct(t, seller.cookie, {}, { cover: false })).id;
});
afterEach(() => t.clock.reset());
afterAll(async () => {
  await t.close();
});

const get = (url: string, cookie: string, headers: Record<string, string> = {}) =>
  t.request({ method: "GET", url, cookie, headers });

/** Resolves when the next event of `type` for this seller has been published (and so has dropped what was kept). */
function nextEvent(userId: string, type: BusEvent["type"]) {
  return new Promise<void>((resolve) => {
    const stop = t.events.subscribe(userId, (event) => {
      if (event.type !== type) return;
      stop();
      resolve();
    });
  });
}

describe("the dashboard's kept answers", () => {
  it("carry an ETag and private, no-cache, and answer 304 while nothing changed", async () => {
    for (const url of ["/api/orders", "/api/dashboard/stats"]) {
      const first = await get(url, seller.cookie);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.headers["content-type"]).toMatch(/^application\/json/);
      expect(first.headers["cache-control"]).toBe("private, no-cache");
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[\w-]{32}"$/);

      const revalidated = await get(url, seller.cookie, { "if-none-match": etag });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.body).toBe("");
      expect((await get(url, seller.cookie, { "if-none-match": '"another"' })).statusCode).toBe(200);
    }
  });

  it("show a sale and a download at once: their events drop what was kept", async () => {
    const before = await get("/api/orders", seller.cookie);
    const statsBefore = await get("/api/dashboard/stats", seller.cookie);
    const unitsBefore = statsBefore.json().unitsSold as number;

    const sold = nextEvent(seller.userId, "sales.changed");
    const orderId = await buyProduct(t, productId, uniqueEmail("buyer"));
    await sold;
    const after = await get("/api/orders", seller.cookie, { "if-none-match": String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.json().sales[0]).toMatchObject({ id: orderId, downloadsUsed: 0 });
    expect(after.json().total).toBe(before.json().total + 1);
    expect((await get("/api/dashboard/stats", seller.cookie)).json().unitsSold).toBe(unitsBefore + 1);

    const downloaded = nextEvent(seller.userId, "sales.changed");
    expect((await startFileDownload(t, await downloadTokenOf(t, orderId))).statusCode).toBe(200);
    await downloaded;
    expect((await get("/api/orders", seller.cookie)).json().sales[0]).toMatchObject({
      id: orderId,
      downloadsUsed: 1,
    });
  });

  it("show what publishes no event once they expire, and never keep a later page", async () => {
    const sold = nextEvent(seller.userId, "sales.changed");
    const orderId = await buyProduct(t, productId, uniqueEmail("buyer"));
    await sold;
    const first = await get("/api/orders?limit=1", seller.cookie);
    expect(first.json().sales[0].id).toBe(orderId);
    const laterPage = `/api/orders?limit=1&before=${first.json().nextCursor}`;
    const olderOrderId = (await get(laterPage, seller.cookie)).json().sales[0].id as string;

    // Changed behind the app's back: no event says so.
    await t.db
      .updateTable("orders")
      .set({ downloads_used: 2 })
      .where("id", "in", [orderId, olderOrderId])
      .execute();
    expect((await get(laterPage, seller.cookie)).json().sales[0].downloadsUsed).toBe(2);
    expect((await get("/api/orders?limit=1", seller.cookie)).json().sales[0].downloadsUsed).toBe(0);
    t.clock.advance(SELLER_ANSWER_TTL_MS);
    expect((await get("/api/orders?limit=1", seller.cookie)).json().sales[0].downloadsUsed).toBe(2);
  });

  it("are each seller's own", async () => {
    const kept = await get("/api/orders", seller.cookie);
    expect(kept.json().total).toBeGreaterThan(0);
    const other = await readySeller(t);
    const theirs = await get("/api/orders", other.cookie, { "if-none-match": String(kept.headers.etag) });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toMatchObject({ sales: [], total: 0 });
    expect((await get("/api/dashboard/stats", other.cookie)).json()).toMatchObject({ unitsSold: 0 });
    expect((await t.request({ method: "GET", url: "/api/orders" })).statusCode).toBe(401);
  });
});
