import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENCY_MESSAGES } from "../../src/contracts/currencies";
import { PRODUCT_MESSAGES } from "../../src/contracts/products";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { publishProduct, readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

// The journey (docs/money.md): a USD store adds a EUR price; a German buyer sees "18,00 €", pays
// in euros and gets a German receipt; the seller sees the euro sale and its dollar settlement; a
// Japanese buyer sees yen on Checkout through Adaptive Pricing.
let server: E2EServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.close();
});

async function newPage(locale = "en-US", viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl, locale });
  contexts.push(context);
  return context.newPage();
}

async function expectToast(page: Page, title: string) {
  await page.locator("[data-sonner-toast]").filter({ hasText: title }).last().waitFor();
}

async function noSideways(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe("prices in the buyer's currency", () => {
  it("a euro price for a German buyer, settled in dollars; yen through Adaptive Pricing for a Japanese one", async () => {
    const seller = await newPage();
    await readySeller(seller, server);

    // Settings: the store counts in US dollars; Adaptive Pricing on, the fee said to be the buyer's.
    await seller.goto("/settings");
    await seller.getByLabel("Store currency").waitFor();
    await seller
      .getByText(/conversion fee/)
      .first()
      .waitFor();
    await seller.getByRole("switch", { name: /Adaptive Pricing/ }).check({ force: true });
    await seller.getByRole("button", { name: "Update currency" }).click();
    await expectToast(seller, CURRENCY_MESSAGES.updatedTitle);
    await screenshot(seller, "currencies-settings-desktop");
    await seller.setViewportSize(PHONE_VIEWPORT);
    await noSideways(seller);
    await screenshot(seller, "currencies-settings-phone");
    await seller.setViewportSize({ width: 1280, height: 900 });

    // The product: $19 in the store currency, and a fixed €18 typed next to it.
    const productId = await publishProduct(seller, { title: "Field Recordings", price: "19" });
    await seller.goto(`/dashboard/products/${productId}/edit`);
    await seller.getByRole("button", { name: "Add a price in another currency" }).click();
    await seller.getByLabel("Currency", { exact: true }).selectOption("eur");
    await seller.getByLabel("Price in EUR").fill("18");
    await screenshot(seller, "currencies-product-form-desktop");
    await seller.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(seller, PRODUCT_MESSAGES.updatedTitle);

    // A German buyer: the page in German, the price in euros, a switcher to dollars.
    const german = await newPage("de-DE");
    await german.goto(`/product/${productId}`);
    await german.getByRole("heading", { name: "Field Recordings" }).waitFor();
    const price = await german.locator("main").innerText();
    expect(price.replace(/\u00a0/g, " ")).toContain("18,00 €");
    expect(price).not.toContain("19,00");
    await german.getByRole("navigation", { name: "Währung" }).getByRole("link", { name: "USD" }).waitFor();
    await screenshot(german, "currencies-product-de-desktop");
    await german.setViewportSize(PHONE_VIEWPORT);
    await noSideways(german);
    await screenshot(german, "currencies-product-de-phone");
    await german.setViewportSize({ width: 1280, height: 900 });

    await german.getByRole("button", { name: "Jetzt kaufen" }).click();
    await german.getByLabel("Card number").waitFor();
    await german.getByLabel("Email").fill("berlin@example.com");
    await german.getByLabel("Card number").fill("4242 4242 4242 4242");
    await german.getByLabel("Expiration date").fill("12 / 34");
    await german.getByLabel("CVC").fill("123");
    await german.getByRole("checkbox", { name: /Widerrufsrecht/ }).check();
    // Checkout in euros (the emulator writes the total as its page's language does).
    expect((await german.locator("body").innerText()).replace(/\u00a0/g, " ")).toMatch(/18,00 €|€18\.00/);
    await screenshot(german, "currencies-checkout-de-desktop");
    await german.getByRole("button", { name: /^Bezahlen/ }).click();
    await german.waitForURL((url) => url.pathname === "/success");

    // Her receipt, in German and in euros.
    await german.goto("/dev/mailbox");
    await german
      .getByRole("link", { name: /Ihre Quittung: Field Recordings.*berlin@example\.com/ })
      .first()
      .click();
    await german.getByText("Subject: Ihre Quittung: Field Recordings").waitFor();
    expect(await german.locator("html").getAttribute("lang")).toBe("de");
    expect((await german.locator("body").innerText()).replace(/\u00a0/g, " ")).toContain("18,00 €");

    // The seller: the sale in euros with its dollar settlement; the total in dollars.
    await seller.goto("/dashboard");
    await seller.getByText("berlin@example.com").first().waitFor();
    await seller.getByText("€18.00").first().waitFor();
    await seller.getByText("settled $19.57").first().waitFor();
    await screenshot(seller, "currencies-sales-desktop");
    await seller.goto("/dashboard/analytics");
    await seller.getByText("$19.57").first().waitFor();

    // A Japanese buyer: no yen price, so the store's dollars, converted to yen on Checkout.
    const japanese = await newPage("ja-JP");
    await japanese.goto(`/product/${productId}`);
    await japanese.getByRole("heading", { name: "Field Recordings" }).waitFor();
    expect(await japanese.locator("html").getAttribute("lang")).toBe("ja");
    await japanese.getByRole("button", { name: "今すぐ購入" }).click();
    await japanese.getByLabel("Card number").waitFor();
    await japanese.getByText("￥2,907").first().waitFor();
    await screenshot(japanese, "currencies-checkout-ja-desktop");
  });
});
