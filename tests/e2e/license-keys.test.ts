import { createServer, type Server } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LICENSE_MESSAGES } from "../../src/contracts/licenses";
import { PRODUCT_MESSAGES } from "../../src/contracts/products";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT } from "./support/browser";
import { buyProduct, publishProduct, readySeller } from "./support/seller";
import { type E2EServer, freePort, startE2EServer } from "./support/server";

let server: E2EServer;
let browser: Browser;
/** A page of the seller's own website, on another origin: the verify call from it is cross-site. */
let sellerSite: Server;
let sellerSiteUrl: string;
beforeAll(async () => {
  const port = await freePort();
  sellerSite = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>My app</title>");
  });
  await new Promise<void>((resolve) => sellerSite.listen(port, "127.0.0.1", resolve));
  sellerSiteUrl = `http://127.0.0.1:${port}/`;
  [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => sellerSite?.close(resolve));
});

const KEY_FORMAT = /^[0-9A-HJKMNP-TV-Z]{8}(-[0-9A-HJKMNP-TV-Z]{8}){3}$/;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `/tmp/licenses-${name}.png`, fullPage: true });

async function expectToast(page: Page, title: string) {
  const toasts = page.locator("[data-sonner-toast]");
  await toasts
    .filter({ hasText: title })
    .last()
    .waitFor()
    .catch(async (error: Error) => {
      throw new Error(`${error.message}\nToasts on screen: ${JSON.stringify(await toasts.allInnerTexts())}`);
    });
}

/** What the seller's website does: a browser POST from its own origin, read through CORS. */
async function verifyFromSellerSite(page: Page, productId: string, key: string) {
  return page.evaluate(
    async ({ url, productId, key }) => {
      const response = await fetch(url, {
        method: "POST",
        body: new URLSearchParams({ product_id: productId, license_key: key }),
      });
      return { status: response.status, body: await response.json() };
    },
    { url: `${server.baseUrl}/api/v1/licenses/verify`, productId, key },
  );
}

/** What desktop software does: JSON, no Origin, no cookie. */
async function verifyFromSoftware(productId: string, key: string) {
  const response = await fetch(`${server.baseUrl}/api/v1/licenses/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ product_id: productId, license_key: key }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("license keys", () => {
  it("a seller turns keys on, a buyer gets one on the success page, it verifies, and stops after a refund", async () => {
    const sellerContext = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: server.baseUrl,
    });
    const seller = await sellerContext.newPage();
    await readySeller(seller, server);
    const productId = await publishProduct(seller, { title: "Pixel Forge for macOS", price: "29.00" });

    // The edit page's switch, saved like every other field.
    await seller.goto(`/dashboard/products/${productId}/edit`);
    const keysField = seller.getByLabel(LICENSE_MESSAGES.fieldLabel);
    await keysField.waitFor();
    expect(await keysField.isChecked()).toBe(false);
    await keysField.check();
    await shot(seller, "edit-page");
    await seller.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(seller, PRODUCT_MESSAGES.updatedTitle);
    await seller.goto(`/dashboard/products/${productId}/edit`);
    expect(await seller.getByLabel(LICENSE_MESSAGES.fieldLabel).isChecked()).toBe(true);

    // A buyer pays with 4242 and lands on the success page, which shows the key.
    const email = `licensee-${Date.now()}@example.com`;
    const sessionId = await buyProduct(server, productId, email);
    const buyerContext = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: server.baseUrl,
    });
    await buyerContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    const buyer = await buyerContext.newPage();
    await buyer.goto(`/success?session_id=${sessionId}`);
    await buyer.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor({ timeout: 20_000 });
    const key = ((await buyer.locator("[data-license-key]").textContent()) ?? "").trim();
    expect(key).toMatch(KEY_FORMAT);
    // The page's small script shows Copy, and it copies the key.
    await buyer.getByRole("button", { name: "Copy license key" }).click();
    await buyer.getByRole("button", { name: "Copy license key" }).getByText("Copied").waitFor();
    expect(await buyer.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expectAccessible(buyer, "success page with a license key");
    await shot(buyer, "success-desktop");
    await buyer.setViewportSize(PHONE_VIEWPORT);
    await expectAccessible(buyer, "success page with a license key (375 px)");
    await expectNoSidewaysOverflow(buyer, "success page with a license key (375 px)");
    await shot(buyer, "success-phone");

    // Without script the key is plain text to select, and no dead Copy button shows.
    const noScript = await browser.newContext({ baseURL: server.baseUrl, javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(`/success?session_id=${sessionId}`);
    expect(((await plain.locator("[data-license-key]").textContent()) ?? "").trim()).toBe(key);
    expect(await plain.getByRole("button", { name: "Copy license key" }).isVisible()).toBe(false);
    await noScript.close();

    // The receipt, the download page and the library (the web app) carry it too.
    await buyer.setViewportSize({ width: 1280, height: 900 });
    await buyer.goto("/dev/mailbox");
    await buyer
      .getByRole("link", { name: new RegExp(`Your receipt: Pixel Forge for macOS.*${email}`) })
      .click();
    await buyer.getByText(`Your license key: ${key}`).waitFor();
    const downloadLink = await buyer.getByRole("link", { name: "Download your file" }).getAttribute("href");
    await buyer.getByRole("link", { name: "All your purchases (your library)" }).click();
    await buyer.waitForURL((url) => url.pathname === "/library" && url.searchParams.has("token"));
    const card = buyer.getByRole("article", { name: "Pixel Forge for macOS" });
    await card.locator("[data-license-key]").getByText(key).waitFor();
    await buyer.evaluate(() => navigator.clipboard.writeText(""));
    await card.getByRole("button", { name: "Copy license key" }).click();
    await expectToast(buyer, "License key copied!");
    expect(await buyer.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shot(buyer, "library-desktop");
    await buyer.goto(downloadLink ?? "");
    await buyer.locator("[data-license-key]").getByText(key).waitFor();
    await expectAccessible(buyer, "download page with a license key");
    await shot(buyer, "download-desktop");

    // The seller's website (another origin, in the browser) and their desktop software both verify it.
    const site = await buyerContext.newPage();
    await site.goto(sellerSiteUrl);
    const fromSite = await verifyFromSellerSite(site, productId, key);
    expect(fromSite).toMatchObject({
      status: 200,
      body: { success: true, uses: 1, purchase: { email, product_id: productId, license_key: key } },
    });
    expect(await verifyFromSoftware(productId, key)).toMatchObject({ status: 200, body: { uses: 2 } });

    // The seller sees the key and its verifications in the sales table, and can switch it off and on.
    await seller.goto("/dashboard");
    const sales = seller.getByRole("region", { name: "Customer Sales" });
    await sales.getByText(key).waitFor();
    await sales.getByText("2 verifications").waitFor();
    await shot(seller, "sales-desktop");
    await sales.getByRole("button", { name: `Disable key of the sale to ${email}` }).click();
    await expectToast(seller, LICENSE_MESSAGES.disabledTitle);
    await sales.getByText("Key disabled").waitFor();
    expect(await verifyFromSellerSite(site, productId, key)).toMatchObject({
      status: 403,
      body: { success: false, message: LICENSE_MESSAGES.disabled },
    });
    await sales.getByRole("button", { name: `Enable key of the sale to ${email}` }).click();
    await expectToast(seller, LICENSE_MESSAGES.enabledTitle);
    expect((await verifyFromSoftware(productId, key)).status).toBe(200);
    await expectAccessible(seller, "dashboard sales with a license key");
    await seller.setViewportSize(PHONE_VIEWPORT);
    await sales.getByText(key).waitFor();
    await expectAccessible(seller, "dashboard sales with a license key (375 px)");
    await expectNoSidewaysOverflow(seller, "dashboard sales with a license key (375 px)");
    await shot(seller, "sales-phone");
    await seller.setViewportSize({ width: 1280, height: 900 });

    // The seller refunds: the key no longer verifies, from anywhere.
    await sales.getByRole("button", { name: `Actions for the sale to ${email}` }).click();
    await seller.getByRole("menuitem", { name: "Refund" }).click();
    await seller.getByRole("alertdialog").getByRole("button", { name: "Refund" }).click();
    await expectToast(seller, "Order refunded");
    expect(await verifyFromSellerSite(site, productId, key)).toMatchObject({
      status: 403,
      body: { success: false, message: LICENSE_MESSAGES.refunded },
    });
    expect(await verifyFromSoftware(productId, key)).toMatchObject({
      status: 403,
      body: { success: false, message: LICENSE_MESSAGES.refunded },
    });

    await buyerContext.close();
    await sellerContext.close();
    // One long journey through three browsers and both sides: more than the default 90 s on a busy machine.
  }, 240_000);
});
