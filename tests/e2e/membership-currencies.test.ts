import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_MESSAGES } from "../../src/contracts/products";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { createMembershipProduct, expectToast } from "./support/memberships";
import { readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

// Issue 26 for memberships (docs/money.md): a USD store gives its Fan tier euro prices in the tier
// editor; a German buyer sees Fan in euros and Patron (no euro price) in dollars.
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
  });
});
