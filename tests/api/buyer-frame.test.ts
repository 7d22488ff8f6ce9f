import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOWNLOAD_LINK_TERM, downloadAllowance, downloadTerms } from "../../src/contracts/download-terms";
import { ORDER_MESSAGES } from "../../src/contracts/orders";
import { control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let productId: string;
const STORE_NAME = "Juniper & Sons";
const ESCAPED_STORE_NAME = "Juniper &amp; Sons";
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
  const saved = await t.request({
    method: "PUT",
    url: "/api/store-settings",
    cookie: seller.cookie,
    body: { storeName: STORE_NAME },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  productId = (await createProduct(t, seller.cookie, { title: "Ink Studies", price: "12.50" })).id;
});
afterAll(async () => {
  await t.close();
});

const page = (url: string) => t.request({ method: "GET", url });

/** The page's header: the creator's frame has no platform navigation in it. */
const headerOf = (html: string) => /<header[^>]*>([\s\S]*?)<\/header>/.exec(html)?.[1] ?? "";
const footerOf = (html: string) => /<footer[^>]*>([\s\S]*?)<\/footer>/.exec(html)?.[1] ?? "";

/** The creator's name at the top, linking to their store (or not), no sign-up, "Powered by Flatfee" below. */
function expectCreatorFrame(html: string, storeLinked = true) {
  const header = headerOf(html);
  expect(header).toContain(ESCAPED_STORE_NAME);
  if (storeLinked) expect(header).toContain(`href="/store/${seller.userId}"`);
  else expect(header).not.toContain("<a ");
  for (const platformOnly of [
    ">Sign Up<",
    ">Login<",
    'href="/#features"',
    'href="/#pricing"',
    'href="/auth"',
  ]) {
    expect(html).not.toContain(platformOnly);
  }
  const footer = footerOf(html);
  expect(footer).toMatch(/<a [^>]*href="\/"[^>]*>Powered by <span[^>]*>Flatfee<\/span><\/a>/);
  expect(footer).toContain('href="/terms"');
  expect(footer).toContain('href="/privacy"');
}

/** A paid purchase of the product: the checkout session id and the success page. */
async function paidPurchase(email: string, product = productId) {
  const checkout = await t.request({ method: "POST", url: "/api/checkout", body: { productId: product } });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const sessionId = new URL(checkout.json().url).pathname.split("/").pop()!;
  await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
  const success = await page(`/success?session_id=${sessionId}`);
  expect(success.statusCode, success.body).toBe(200);
  const downloadPath = /<form action="(\/download\/[^"]+)" method="post">/.exec(success.body)?.[1];
  expect(downloadPath, success.body).toBeDefined();
  const order = await t.db
    .selectFrom("orders")
    .select(["id", "download_window_ends_at"])
    .where("stripe_session_id", "=", sessionId)
    .executeTakeFirstOrThrow();
  return { sessionId, success, downloadPath: downloadPath!, order };
}

describe("creator pages wear the creator's frame, not the platform's", () => {
  it("product page: the store's name on top, no sign-up, Powered by Flatfee, the download rules before buying", async () => {
    const response = await page(`/product/${productId}`);
    expect(response.statusCode).toBe(200);
    expectCreatorFrame(response.body);
    expect(response.body).toContain(DOWNLOAD_LINK_TERM);
    expect(response.body).toContain(downloadAllowance());
  });

  it("store page: the same frame; store-not-found has an h1 and no platform navigation either", async () => {
    const store = await page(`/store/${seller.userId}`);
    expect(store.statusCode).toBe(200);
    expectCreatorFrame(store.body);

    const missing = await page("/store/no-such-store");
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toMatch(/<h1[^>]*>Store not found<\/h1>/);
    expect(missing.body).not.toContain(">Sign Up<");
    expect(footerOf(missing.body)).toContain("Powered by");
  });

  it("the landing page keeps Flatfee's own header", async () => {
    const landing = await page("/");
    expect(headerOf(landing.body)).toContain(">Sign Up<");
    expect(headerOf(landing.body)).toContain('href="/#pricing"');
  });

  it("success page: the creator's frame while the payment is processing, and once paid", async () => {
    const checkout = await t.request({ method: "POST", url: "/api/checkout", body: { productId } });
    const sessionId = new URL(checkout.json().url).pathname.split("/").pop()!;
    const processing = await page(`/success?session_id=${sessionId}`);
    expect(processing.body).toContain(ORDER_MESSAGES.processing);
    expectCreatorFrame(processing.body);

    const { success } = await paidPurchase("frame@example.com");
    expectCreatorFrame(success.body);
    // No session, no seller: Flatfee's name alone, still no sign-up.
    const unknown = await page("/success");
    expect(headerOf(unknown.body)).toContain("Flatfee");
    expect(unknown.body).not.toContain(">Sign Up<");
  });
});

describe("one wording of the download rules everywhere", () => {
  it("the product, success and download pages and the receipt say the link expires in 24 hours and the same last day", async () => {
    const { success, downloadPath, order } = await paidPurchase("terms@example.com");
    const dated = downloadAllowance(order.download_window_ends_at);
    expect(success.body).toContain(DOWNLOAD_LINK_TERM);
    expect(success.body).toContain(dated);
    expect(success.body).not.toContain("Available until");

    const download = await page(downloadPath);
    expect(download.statusCode).toBe(200);
    expectCreatorFrame(download.body);
    expect(download.body).toContain(DOWNLOAD_LINK_TERM);
    expect(download.body).toContain(dated);

    const receipt = await t.db
      .selectFrom("outbox_emails")
      .select(["text", "html"])
      .where("to_address", "=", "terms@example.com")
      .where("subject", "like", "Your receipt:%")
      .executeTakeFirstOrThrow();
    expect(receipt.text).toContain(downloadTerms(order.download_window_ends_at));
    expect(receipt.html).toContain(downloadTerms(order.download_window_ends_at));
    expect(receipt.html).toMatch(/^<!doctype html><html lang="en">/);
  });

  it("the fresh link email says the same", async () => {
    const { order } = await paidPurchase("fresh@example.com");
    const resent = await t.request({
      method: "POST",
      url: "/api/download-links/resend",
      body: { productId, email: "fresh@example.com" },
    });
    expect(resent.statusCode, resent.body).toBe(200);
    const mail = await t.db
      .selectFrom("outbox_emails")
      .select(["text", "html"])
      .where("to_address", "=", "fresh@example.com")
      .where("subject", "like", "Your download link:%")
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain(`3 of 3 downloads left. ${downloadTerms(order.download_window_ends_at)}`);
    expect(mail.html).toMatch(/^<!doctype html><html lang="en">/);
  });
});

describe("a refunded purchase", () => {
  it("the success page says it was refunded, with no thanks and no download; the download page too, pointing to the store", async () => {
    const { sessionId, downloadPath, order } = await paidPurchase("refund-me@example.com");
    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${order.id}/refund`,
      cookie: seller.cookie,
    });
    expect(refund.statusCode, refund.body).toBe(204);

    const success = await page(`/success?session_id=${sessionId}`);
    expect(success.statusCode).toBe(200);
    expect(success.body).toMatch(/<h1[^>]*>This purchase was refunded<\/h1>/);
    expect(success.body).toContain("<title>Purchase refunded · Flatfee</title>");
    expect(success.body).toContain(ORDER_MESSAGES.refunded);
    expect(success.body).toContain("Amount refunded");
    expect(success.body).not.toContain("Thank you for your purchase!");
    expect(success.body).not.toContain('method="post"');
    expect(success.body).not.toContain(DOWNLOAD_LINK_TERM);
    expectCreatorFrame(success.body);

    const download = await page(downloadPath);
    expect(download.body).toMatch(/<h1[^>]*>This purchase was refunded<\/h1>/);
    expect(download.body).toContain(ORDER_MESSAGES.refunded);
    expect(download.body).not.toContain('method="post"');
    expect(download.body).toMatch(
      new RegExp(`<a [^>]*href="/store/${seller.userId}"[^>]*>Visit the store</a>`),
    );
    expectCreatorFrame(download.body);
  });
});

describe("an expired download link", () => {
  it("still wears its creator's frame, with the form for a fresh link", async () => {
    const { downloadPath } = await paidPurchase("expired@example.com");
    t.clock.advance(DAY_MS + 1000);
    try {
      const expired = await page(downloadPath);
      expect(expired.statusCode).toBe(410);
      expect(expired.body).toContain(`action="${downloadPath}/resend-link"`);
      expectCreatorFrame(expired.body);
    } finally {
      t.clock.reset();
    }
  });
});

describe("a creator whose store is no longer public", () => {
  it("the download page still works and names them, without linking to the closed store", async () => {
    const { downloadPath } = await paidPurchase("late@example.com");
    // The plan was canceled 31 days ago: the store and product pages are no longer public.
    await t.db
      .updateTable("subscriptions")
      .set({ status: "canceled", canceled_at: new Date(t.clock.now().getTime() - 31 * DAY_MS) })
      .where("user_id", "=", seller.userId)
      .execute();
    try {
      expect((await page(`/store/${seller.userId}`)).statusCode).toBe(404);
      const download = await page(downloadPath);
      expect(download.statusCode).toBe(200);
      expect(download.body).toContain('method="post"');
      expectCreatorFrame(download.body, false);
    } finally {
      await t.db
        .updateTable("subscriptions")
        .set({ status: "active", canceled_at: null })
        .where("user_id", "=", seller.userId)
        .execute();
    }
  });
});
