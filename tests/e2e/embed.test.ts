import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SellerAnalytics } from "../../src/contracts/analytics";
import { EMBED_LIMITS } from "../../src/contracts/embed";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT } from "./support/browser";
import { publishProduct, readySeller, tinyPdf } from "./support/seller";
import { E2E_WEB_DIST, type E2EServer, freePort, startE2EServer } from "./support/server";

const TITLE = "Watercolour Field Guide";
const BUYER_EMAIL = "embed-buyer@example.com";
const DESKTOP = { width: 1280, height: 900 };

let server: E2EServer;
let browser: Browser;
let site: Server;
let siteUrl: string;
let productId: string;
let seller: Page;
const contexts: BrowserContext[] = [];

/**
 * The creator's own website: another origin (localhost, not the app's 127.0.0.1, so another site too),
 * with the snippet, and styles that would spoil any button, link or dialog they reach.
 */
function sitePage(appUrl: string, id: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Ada paints</title>
    <style>
      body { font: 18px/1.6 Georgia, serif; color: #222; margin: 0; }
      main { max-width: 40rem; margin: 0 auto; padding: 2rem 1rem; }
      button, dialog, iframe { all: unset; color: red !important; font-size: 40px; }
      span { display: block; border: 5px solid hotpink; }
    </style>
  </head>
  <body>
    <main>
      <h1>Ada paints</h1>
      <p>My guide to painting outdoors, with twelve lessons.</p>
      <p><a href="${appUrl}/product/${id}" data-flatfee>Buy the guide</a></p>
      <p><a href="${appUrl}/product/${id}">A plain link stays a link</a></p>
      <script src="${appUrl}/embed.js" defer></script>
    </main>
  </body>
</html>`;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
  seller = await newPage(DESKTOP);
  await readySeller(seller, server);
  productId = await publishProduct(seller, { title: TITLE, price: "9.99", description: "Twelve lessons." });
  const port = await freePort();
  site = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(sitePage(server.baseUrl, productId));
  });
  await new Promise<void>((resolve) => site.listen(port, "127.0.0.1", resolve));
  siteUrl = `http://localhost:${port}/`;
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await server?.close();
});

/** A buyer's browser as sites see it: views from a "HeadlessChrome" user agent are never counted. */
const BUYER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0 Safari/537.36";

async function newPage(viewport = DESKTOP, javaScriptEnabled = true, userAgent?: string): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    baseURL: server.baseUrl,
    javaScriptEnabled,
    ...(userAgent ? { userAgent } : {}),
  });
  contexts.push(context);
  return context.newPage();
}

/** The element focus is on, looking through open shadow roots: its role-ish description. */
function focused(page: Page) {
  return page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return {
      tag: active?.tagName.toLowerCase(),
      label: active?.getAttribute("aria-label") ?? active?.textContent?.trim() ?? "",
    };
  });
}

/**
 * Presses the site's Buy button and waits until the framed product page has run its script: Esc pressed in
 * the frame before then is the browser's alone (a buyer that fast just presses it again).
 */
async function openOverlay(page: Page, buy: Locator): Promise<void> {
  await buy.click();
  await page.getByRole("dialog", { name: TITLE }).waitFor();
  const handle = await page.locator(`iframe[title="${TITLE}"]`).elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error("The overlay has no product page frame");
  await frame.waitForLoadState("load");
}

describe("embeddable buy button", () => {
  it("is within its size budget as built", async () => {
    const built = await readFile(`${E2E_WEB_DIST}/embed.js`);
    expect(gzipSync(built).length).toBeLessThanOrEqual(EMBED_LIMITS.scriptBudgetBytes);
  });

  it("without the script's work, the link still opens the product page", async () => {
    const page = await newPage(DESKTOP, false);
    await page.goto(siteUrl);
    await page.getByRole("link", { name: "Buy the guide" }).click();
    await page.waitForURL(`${server.baseUrl}/product/${productId}`);
    await page.getByRole("heading", { name: TITLE }).waitFor();
  });

  it("a site with the snippet shows a Buy button with the price; the overlay opens and closes with Esc", async () => {
    const page = await newPage(DESKTOP, true, BUYER_AGENT);
    const fromApp: string[] = [];
    page.on("request", (request) => {
      if (request.url().startsWith(server.baseUrl)) fromApp.push(new URL(request.url()).pathname);
    });
    await page.goto(siteUrl);
    const buy = page.getByRole("button", { name: /Buy the guide/ });
    await buy.waitFor();
    await expect.poll(() => buy.textContent()).toContain("$9.99");
    // Only the marked link became a button; the host page's CSS reached none of it.
    await page.getByRole("link", { name: "A plain link stays a link" }).waitFor();
    await expect(page.getByRole("link", { name: "Buy the guide" }).count()).resolves.toBe(0);
    const look = await buy.evaluate((button) => {
      const style = getComputedStyle(button);
      return { color: style.color, background: style.backgroundColor, font: style.fontFamily };
    });
    expect(look).toEqual({
      color: "rgb(255, 255, 255)",
      background: "rgb(79, 70, 229)",
      font: expect.stringContaining("system-ui"),
    });
    // Until a button is pressed: the script and one request for every button's price, nothing else.
    expect(fromApp).toEqual(["/embed.js", "/api/embed/products"]);
    await page.screenshot({ path: "/tmp/embed-site-desktop.png" });
    await expectAccessible(page, "a site with the embedded Buy button");

    // The overlay: a labelled modal dialog, focus inside, Esc closes it and gives focus back.
    await buy.click();
    const dialog = page.getByRole("dialog", { name: TITLE });
    await dialog.waitFor();
    expect(await focused(page)).toEqual({ tag: "button", label: "Close" });
    const frame = page.frameLocator(`iframe[title="${TITLE}"]`);
    await frame.getByRole("heading", { name: TITLE }).waitFor();
    await frame.getByRole("button", { name: "Buy Now" }).waitFor();
    await frame.getByText("$9.99").first().waitFor();
    await page.screenshot({ path: "/tmp/embed-overlay-desktop.png" });
    await expectAccessible(page, "the overlay open on the site");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await focused(page)).toMatchObject({
      tag: "button",
      label: expect.stringContaining("Buy the guide"),
    });

    // Esc pressed inside the product page (the frame has the keyboard) closes it too; so does Close.
    await openOverlay(page, buy);
    await frame.getByRole("button", { name: "Buy Now" }).focus();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await focused(page)).toMatchObject({ tag: "button" });
    // An Esc that closes the page's own popover leaves the overlay open.
    await openOverlay(page, buy);
    await frame.getByRole("button", { name: "Resend my download link" }).click();
    const resend = frame.getByRole("dialog", { name: "Resend my download link" });
    await resend.waitFor();
    await page.keyboard.press("Escape");
    await resend.waitFor({ state: "hidden" });
    await expect(dialog.isVisible()).resolves.toBe(true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await buy.click();
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });
  });

  it("Buy Now in the overlay opens Checkout in the top window; the buyer pays with 4242 and downloads", async () => {
    const page = await newPage(DESKTOP, true, BUYER_AGENT);
    await page.goto(siteUrl);
    const buy = page.getByRole("button", { name: /Buy the guide/ });
    const frame = page.frameLocator(`iframe[title="${TITLE}"]`);
    // Buy Now leaves the frame: Checkout opens in the top window, never inside the iframe.
    await openOverlay(page, buy);
    await frame.getByRole("button", { name: "Buy Now" }).click();
    await page.getByLabel("Card number").waitFor();
    expect(new URL(page.url()).origin).not.toBe(server.baseUrl);
    expect(new URL(page.url()).origin).not.toBe(new URL(siteUrl).origin);
    await page.getByLabel("Email").fill(BUYER_EMAIL);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiration date").fill("12 / 34");
    await page.getByLabel("CVC").fill("123");
    // The EU withdrawal waiver, asked before paying for a download.
    await page.getByRole("checkbox", { name: /right of withdrawal/ }).check();
    await page.getByRole("button", { name: "Pay $9.99" }).click();

    await page.waitForURL((url) => url.pathname === "/success" && url.searchParams.has("session_id"));
    await page.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download Your File" }).click(),
    ]);
    expect((await readFile(await download.path())).equals(tinyPdf())).toBe(true);

    // The seller's analytics count the overlay's view and file the sale under the embedding site.
    await expect
      .poll(async () => {
        const stats = (await seller.evaluate(async (id) => {
          const response = await fetch(`/api/analytics?productId=${id}`);
          return response.json();
        }, productId)) as SellerAnalytics;
        return stats.sources.map(({ referrerHost, productViews, units }) => ({
          referrerHost,
          productViews,
          units,
        }));
      })
      .toEqual([{ referrerHost: "localhost", productViews: 1, units: 1 }]);
  });

  it("fits a phone: the button, and the overlay over the whole screen", async () => {
    const page = await newPage(PHONE_VIEWPORT);
    await page.goto(siteUrl);
    const buy = page.getByRole("button", { name: /Buy the guide/ });
    await buy.waitFor();
    await expectNoSidewaysOverflow(page, "the site with the button at 375 px");
    await page.screenshot({ path: "/tmp/embed-site-phone.png" });
    await buy.click();
    const frame = page.frameLocator(`iframe[title="${TITLE}"]`);
    await frame.getByRole("button", { name: "Buy Now" }).waitFor();
    const box = await page.getByRole("dialog", { name: TITLE }).boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: PHONE_VIEWPORT.width, height: PHONE_VIEWPORT.height });
    await page.screenshot({ path: "/tmp/embed-overlay-phone.png" });
  });

  it("the embed page on its own passes axe and fits 375 px", async () => {
    for (const viewport of [DESKTOP, PHONE_VIEWPORT]) {
      const page = await newPage(viewport);
      await page.goto(`/embed/product/${productId}`);
      await page.getByRole("heading", { name: TITLE }).waitFor();
      await expectAccessible(page, `the embed page at ${viewport.width} px`);
      await expectNoSidewaysOverflow(page, `the embed page at ${viewport.width} px`);
      await page.screenshot({ path: `/tmp/embed-page-${viewport.width}.png`, fullPage: true });
    }
  });

  it("the seller's Share / Embed panel has the snippet to copy and a live preview of the button", async () => {
    await seller.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    for (const viewport of [DESKTOP, PHONE_VIEWPORT]) {
      await seller.setViewportSize(viewport);
      await seller.goto("/dashboard");
      await seller.getByRole("button", { name: `Share or embed ${TITLE}` }).click();
      const panel = seller.getByRole("dialog", { name: "Share / Embed" });
      const snippet = panel.getByLabel("Buy button for your website");
      await expect(snippet.inputValue()).resolves.toBe(
        `<a href="${server.baseUrl}/product/${productId}" data-flatfee>Buy ${TITLE}</a>\n<script src="${server.baseUrl}/embed.js" defer></script>`,
      );
      const preview = seller.frameLocator(`iframe[title="Preview of the Buy button for ${TITLE}"]`);
      await preview.getByRole("button", { name: new RegExp(`Buy ${TITLE}.*\\$9\\.99`) }).waitFor();
      await seller.screenshot({ path: `/tmp/embed-share-panel-${viewport.width}.png` });
      await expectAccessible(seller, `the Share / Embed panel at ${viewport.width} px`);
      await expectNoSidewaysOverflow(seller, `the Share / Embed panel at ${viewport.width} px`);
      await panel.getByRole("button", { name: "Copy embed code" }).click();
      await seller.getByText("Embed code copied!").waitFor();
      expect(await seller.evaluate(() => navigator.clipboard.readText())).toBe(await snippet.inputValue());
      await seller.keyboard.press("Escape");
      await panel.waitFor({ state: "hidden" });
    }
  });
});
