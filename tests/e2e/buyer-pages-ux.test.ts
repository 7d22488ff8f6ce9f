import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOWNLOAD_LINK_TERM, downloadAllowance } from "../../src/contracts/download-terms";
import { ORDER_MESSAGES } from "../../src/contracts/orders";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { buyProduct, publishProduct, type ReadySeller, readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

const DESKTOP = { width: 1280, height: 800 };
const STORE_NAME = "Juniper Press";
const TITLE = "Field Notes on Watercolour";
const DESCRIPTION = Array.from(
  { length: 6 },
  () => "Twelve lessons from first wash to finished piece, with colour charts and practice sheets.",
).join("\n");
const BUYER_EMAIL = "ux-buyer@example.com";

let server: E2EServer;
let browser: Browser;
let seller: ReadySeller;
let sellerPage: Page;
let productId: string;
const contexts: BrowserContext[] = [];

async function newPage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl });
  contexts.push(context);
  return context.newPage();
}

/** A call to the app from the seller's signed-in page. */
async function asSeller(method: "GET" | "POST" | "PUT", path: string, body?: unknown): Promise<unknown> {
  return sellerPage.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
      return response.status === 204 ? null : response.json();
    },
    { method, path, body },
  );
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
  sellerPage = await newPage(DESKTOP);
  seller = await readySeller(sellerPage, server);
  await asSeller("PUT", "/api/store-settings", { storeName: STORE_NAME });
  productId = await publishProduct(sellerPage, { title: TITLE, price: "12.00", description: DESCRIPTION });
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.close();
});

/**
 * The creator's frame: their name at the top linking to their store, no platform navigation or sign-up,
 * and "Powered by Flatfee" in the footer.
 */
async function expectCreatorFrame(page: Page) {
  const header = page.getByRole("banner");
  const storeLink = header.getByRole("link", { name: STORE_NAME });
  expect(await storeLink.getAttribute("href")).toBe(`/store/${seller.userId}`);
  expect(await header.getByRole("link").count()).toBe(1);
  for (const name of ["Sign Up", "Login", "Features", "Pricing", "FAQ"]) {
    expect(await page.getByRole("link", { name, exact: true }).count(), name).toBe(0);
    expect(await page.getByRole("button", { name, exact: true }).count(), name).toBe(0);
  }
  const footer = page.getByRole("contentinfo");
  expect(await footer.getByRole("link", { name: "Powered by Flatfee" }).getAttribute("href")).toBe("/");
  expect(await footer.getByRole("link", { name: "Terms" }).getAttribute("href")).toBe("/terms");
  expect(await footer.getByRole("link", { name: "Privacy" }).getAttribute("href")).toBe("/privacy");
}

/** The element is entirely on the first screen, without scrolling. */
async function expectAboveTheFold(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height);
}

/** The text of the links and buttons before `target` in the page, in order (decorative text left out). */
async function actionsBefore(target: Locator): Promise<string[]> {
  return target.evaluate((element) => {
    const words = (action: Element) => {
      const walker = document.createTreeWalker(action, NodeFilter.SHOW_TEXT);
      const parts: string[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.parentElement?.closest("[aria-hidden=true]")) parts.push(node.textContent?.trim() ?? "");
      }
      return parts.filter(Boolean).join(" ");
    };
    return [...document.querySelectorAll("a[href], button")]
      .filter((action) => action.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING)
      .map(words);
  });
}

/** The download rules as a purchase's page words them: the day its 30-day window ends. */
async function expectPurchaseTerms(page: Page): Promise<string> {
  const main = page.getByRole("main");
  await main.getByText(DOWNLOAD_LINK_TERM, { exact: true }).waitFor();
  const allowance =
    (await main.getByText(/^You can download each file up to 3 times until /).textContent()) ?? "";
  expect(allowance).toMatch(
    /^You can download each file up to 3 times until [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/,
  );
  return allowance;
}

describe("a creator's pages wear the creator's frame", () => {
  it("product page on a phone: the creator's name on top, Buy Now the first action and above the fold, no Sign Up", async () => {
    const page = await newPage(PHONE_VIEWPORT);
    await page.goto(`/product/${productId}`);
    await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    await expectCreatorFrame(page);
    const buyNow = page.getByRole("button", { name: "Buy Now" });
    await expectAboveTheFold(page, buyNow);
    // Only the creator's own links come before it: their name on top and the 'Sold by' byline.
    expect(await actionsBefore(buyNow)).toEqual([STORE_NAME, `Sold by ${STORE_NAME}`]);
    // The description follows the purchase, however long it is.
    await page.getByRole("heading", { level: 2, name: "About this product" }).waitFor();
    // The download rules, in the words every page uses.
    await page.getByText(DOWNLOAD_LINK_TERM, { exact: true }).waitFor();
    await page.getByText(downloadAllowance(), { exact: true }).waitFor();
    await expectNoSidewaysOverflow(page, "product page at 375 px");
    await expectAccessible(page, "product page at 375 px");
    await screenshot(page, "buyer-ux-product-phone");

    await page.setViewportSize(DESKTOP);
    await expectAboveTheFold(page, page.getByRole("button", { name: "Buy Now" }));
    await expectAccessible(page, "product page at 1280 px");
    await screenshot(page, "buyer-ux-product-desktop");
  });

  it("store page: the creator's frame at both sizes; the store-not-found page has its h1 and no sign-up either", async () => {
    const page = await newPage(PHONE_VIEWPORT);
    await page.goto(`/store/${seller.userId}`);
    await page.getByRole("heading", { level: 1, name: STORE_NAME }).waitFor();
    await expectCreatorFrame(page);
    await page.getByRole("heading", { level: 2, name: TITLE }).waitFor();
    await expectNoSidewaysOverflow(page, "store page at 375 px");
    await expectAccessible(page, "store page at 375 px");
    await screenshot(page, "buyer-ux-store-phone");
    await page.setViewportSize(DESKTOP);
    await expectAccessible(page, "store page at 1280 px");
    await screenshot(page, "buyer-ux-store-desktop");

    await page.goto("/store/no-such-store");
    await page.getByRole("heading", { level: 1, name: "Store not found" }).waitFor();
    expect(await page.getByRole("link", { name: "Sign Up" }).count()).toBe(0);
    await page.getByRole("contentinfo").getByRole("link", { name: "Powered by Flatfee" }).waitFor();
    await expectAccessible(page, "store not found");
  });

  it("success and download pages after paying: the creator's frame, the download above the fold, the same download rules as the product page", async () => {
    const sessionId = await buyProduct(server, productId, BUYER_EMAIL);
    const page = await newPage(PHONE_VIEWPORT);
    await page.goto(`/success?session_id=${sessionId}`);
    await page.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor();
    await expectCreatorFrame(page);
    const download = page.getByRole("button", { name: "Download Your File" });
    await expectAboveTheFold(page, download);
    const successTerms = await expectPurchaseTerms(page);
    await expectNoSidewaysOverflow(page, "success page at 375 px");
    await expectAccessible(page, "success page at 375 px");
    await screenshot(page, "buyer-ux-success-phone");
    await page.setViewportSize(DESKTOP);
    await expectAccessible(page, "success page at 1280 px");
    await screenshot(page, "buyer-ux-success-desktop");

    const downloadPath = await page.locator("form:has(button)").first().getAttribute("action");
    expect(downloadPath).toMatch(/^\/download\//);
    await page.setViewportSize(PHONE_VIEWPORT);
    await page.goto(downloadPath!);
    await page.getByRole("heading", { name: TITLE }).waitFor();
    await expectCreatorFrame(page);
    await expectAboveTheFold(page, page.getByRole("button", { name: "Download" }));
    expect(await expectPurchaseTerms(page)).toBe(successTerms);
    await expectNoSidewaysOverflow(page, "download page at 375 px");
    await expectAccessible(page, "download page at 375 px");
    await screenshot(page, "buyer-ux-download-phone");
    await page.setViewportSize(DESKTOP);
    await expectAccessible(page, "download page at 1280 px");
    await screenshot(page, "buyer-ux-download-desktop");

    // The receipt says the same; its library (the site's frame: it lists several creators) too.
    await page.setViewportSize(PHONE_VIEWPORT);
    await page.goto("/dev/mailbox");
    await page.getByRole("link", { name: new RegExp(`Your receipt: ${TITLE}.*${BUYER_EMAIL}`) }).click();
    await page.getByText(`${DOWNLOAD_LINK_TERM} ${successTerms}`, { exact: false }).waitFor();
    await expectAccessible(page, "receipt email at 375 px");
    await screenshot(page, "buyer-ux-receipt-phone");
    await page.getByRole("link", { name: "All your purchases (your library)" }).click();
    await page.getByRole("heading", { level: 1, name: "Your purchases" }).waitFor();
    await page.getByRole("article", { name: TITLE }).getByText(successTerms, { exact: true }).waitFor();
    await expectNoSidewaysOverflow(page, "library at 375 px");
    await expectAccessible(page, "library at 375 px");
    await screenshot(page, "buyer-ux-library-phone");
  });

  it("after a refund the success page says the purchase was refunded, with no thanks and no download; so does the download page", async () => {
    const email = "refunded-buyer@example.com";
    const sessionId = await buyProduct(server, productId, email);
    const page = await newPage(PHONE_VIEWPORT);
    await page.goto(`/success?session_id=${sessionId}`);
    await page.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor();
    const downloadPath = await page.locator("form:has(button)").first().getAttribute("action");

    const { sales } = (await asSeller("GET", "/api/orders")) as {
      sales: Array<{ id: string; customerEmail: string }>;
    };
    const order = sales.find((sale) => sale.customerEmail === email);
    await asSeller("POST", `/api/orders/${order!.id}/refund`);

    await page.reload();
    await page.getByRole("heading", { level: 1, name: "This purchase was refunded" }).waitFor();
    await page.getByText(ORDER_MESSAGES.refunded, { exact: true }).waitFor();
    expect(await page.getByText("Thank you for your purchase!").count()).toBe(0);
    expect(await page.getByRole("button", { name: /Download/ }).count()).toBe(0);
    expect(await page.getByText(DOWNLOAD_LINK_TERM).count()).toBe(0);
    await expectCreatorFrame(page);
    await expectAccessible(page, "refunded success page at 375 px");
    await screenshot(page, "buyer-ux-success-refunded-phone");

    await page.goto(downloadPath!);
    await page.getByRole("heading", { level: 1, name: "This purchase was refunded" }).waitFor();
    await page.getByText(ORDER_MESSAGES.refunded, { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: /Download/ }).count()).toBe(0);
    const storeLink = page.getByRole("main").getByRole("link", { name: "Visit the store" });
    expect(await storeLink.getAttribute("href")).toBe(`/store/${seller.userId}`);
    await expectAccessible(page, "refunded download page at 375 px");
    await screenshot(page, "buyer-ux-download-refunded-phone");
  });

  it("the landing page keeps Flatfee's own header and passes axe at both sizes", async () => {
    const page = await newPage(PHONE_VIEWPORT);
    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "Sign Up" }).waitFor();
    await expectAccessible(page, "landing page at 375 px");
    await page.setViewportSize(DESKTOP);
    await expectAccessible(page, "landing page at 1280 px");
  });
});
