import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENCY_MESSAGES } from "../../src/contracts/currencies";
import { PRODUCT_MESSAGES } from "../../src/contracts/products";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { createMembershipProduct, expectToast } from "./support/memberships";
import { readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

// Issue 26 for memberships (docs/money.md): a USD store gives its Fan tier euro prices in the tier
// editor; a German buyer sees Fan in euros and Patron (no euro price) in dollars. With the seller's
// Adaptive Pricing on, she subscribes to Patron paying in euros on Checkout; the membership stays in dollars.
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

async function newPage(locale = "en-US"): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    baseURL: server.baseUrl,
    locale,
  });
  contexts.push(context);
  return context.newPage();
}

async function noSideways(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe("membership tiers in the buyer's currency", () => {
  it("the seller gives a tier euro prices; a German buyer sees that tier in euros, the other in dollars", async () => {
    const seller = await newPage();
    await readySeller(seller, server);
    const product = await createMembershipProduct(seller, {
      title: "The Lettering Club",
      fileNames: ["basics.pdf"],
      tiers: [
        { name: "Fan", monthlyPrice: "5", yearlyPrice: "50", fileIndexes: [0] },
        { name: "Patron", monthlyPrice: "15", fileIndexes: [0] },
      ],
    });

    await seller.goto(`/dashboard/products/${product.id}/edit`);
    const fan = seller.getByRole("group", { name: /Tier 1: Fan/ });
    await fan.getByRole("button", { name: "Add a price in another currency" }).click();
    await fan.getByLabel("Currency", { exact: true }).selectOption("eur");
    await fan.getByLabel("Monthly price in EUR").fill("4.50");
    await fan.getByLabel("Yearly price in EUR").fill("45");
    await screenshot(seller, "membership-currencies-tier-editor-desktop");
    await fan.screenshot({ path: "screenshots/membership-currencies-tier-desktop.png" });
    await seller.setViewportSize(PHONE_VIEWPORT);
    await noSideways(seller);
    await screenshot(seller, "membership-currencies-tier-editor-phone");
    await fan.screenshot({ path: "screenshots/membership-currencies-tier-phone.png" });
    await seller.setViewportSize({ width: 1280, height: 900 });
    await seller.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(seller, PRODUCT_MESSAGES.updatedTitle);

    const german = await newPage("de-DE");
    await german.goto(`/product/${product.id}`);
    await german.getByRole("heading", { name: "The Lettering Club" }).waitFor();
    const tiers = ((await german.locator("main").textContent()) ?? "").replace(/\u00a0/g, " ");
    expect(tiers).toContain("4,50 €");
    expect(tiers).toContain("15,00 $");
    expect(tiers).toContain("Ab 4,50 €/Monat");
    await german.getByRole("navigation", { name: "Währung" }).getByRole("link", { name: "USD" }).waitFor();
    await screenshot(german, "membership-currencies-product-de-desktop");
    await german.setViewportSize(PHONE_VIEWPORT);
    await noSideways(german);
    await screenshot(german, "membership-currencies-product-de-phone");
    await german
      .getByRole("heading", { name: "Wählen Sie Ihre Mitgliedschaft" })
      .locator("..")
      .screenshot({ path: "screenshots/membership-currencies-tiers-de-phone.png" });
    await german.setViewportSize({ width: 1280, height: 900 });

    // Adaptive Pricing on: Patron, which has no euro price, is offered in euros on Checkout.
    await seller.goto("/settings");
    await seller.getByRole("switch", { name: /Adaptive Pricing/ }).check({ force: true });
    await seller.getByRole("button", { name: "Update currency" }).click();
    await expectToast(seller, CURRENCY_MESSAGES.updatedTitle);

    await german.goto(`/product/${product.id}`);
    await german.getByRole("button", { name: /Abonnieren.*Patron/ }).click();
    await german.getByLabel("Card number").waitFor();
    await german.getByTestId("currency-conversion").waitFor();
    const checkout = ((await german.locator("body").textContent()) ?? "").replace(/\u00a0/g, " ");
    // The total in euros, converted from the tier's $15.00, with the fee said.
    expect(checkout).toMatch(/\d+,\d\d €|€\d+\.\d\d/);
    expect(checkout).toContain("conversion fee");
    await screenshot(german, "membership-currencies-adaptive-checkout-desktop");
    await german.setViewportSize(PHONE_VIEWPORT);
    await noSideways(german);
    await screenshot(german, "membership-currencies-adaptive-checkout-phone");
    await german.setViewportSize({ width: 1280, height: 900 });
    await german.getByLabel("Email").fill("muenchen@example.com");
    await german.getByLabel("Card number").fill("4242 4242 4242 4242");
    await german.getByLabel("Expiration date").fill("12 / 34");
    await german.getByLabel("CVC").fill("123");
    const waiver = german.getByRole("checkbox", { name: /Widerrufsrecht/ });
    if ((await waiver.count()) > 0) await waiver.check();
    await german.getByRole("button", { name: /^Abonnieren/ }).click();
    await german.waitForURL((url) => url.pathname === "/success");

    // The seller's sales: the period paid in euros, settled $15.00.
    await seller.goto("/dashboard");
    await seller.getByText("muenchen@example.com").first().waitFor();
    await seller.getByText("settled $15.00").first().waitFor();
    await screenshot(seller, "membership-currencies-adaptive-sales-desktop");
  });
});
