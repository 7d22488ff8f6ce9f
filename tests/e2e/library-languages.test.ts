import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { createMembershipProduct, openEmail, subscribeAndPay } from "./support/memberships";
import { fromPage, publishProduct, readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

// The library (a page of the web app) in the buyer's language (docs/i18n.md): the API answers the
// language it negotiated, the page loads that one catalogue, and the footer's switcher reloads it in
// another, which the server remembers.
let server: E2EServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const DESKTOP = { width: 1280, height: 900 };
const BUYER = `leserin-${Date.now()}@example.com`;
const FREE_TITLE = "Field Sketching Worksheets";
const CLUB = "The Lettering Club";

/** The page at both widths: nothing wider than the screen, no serious axe finding, a screenshot of each. */
async function checkLayout(page: Page, name: string) {
  for (const [label, viewport] of [
    ["375", PHONE_VIEWPORT],
    ["1280", DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectNoSidewaysOverflow(page, `${name} (${label})`);
    await expectAccessible(page, `${name} (${label})`);
    await screenshot(page, `${name}-${label}`);
  }
  await page.setViewportSize(PHONE_VIEWPORT);
}

describe("the library in the buyer's language", () => {
  it("a German browser opens the library from a receipt in German, then switches to Japanese, which is remembered", async () => {
    const seller = await (await browser.newContext({ viewport: DESKTOP, baseURL: server.baseUrl })).newPage();
    await readySeller(seller, server);
    const club = await createMembershipProduct(seller, {
      title: CLUB,
      fileNames: ["basics.pdf"],
      tiers: [
        { name: "Fan", monthlyPrice: "5", yearlyPrice: "50", fileIndexes: [0] },
        { name: "Patron", monthlyPrice: "15", fileIndexes: [0] },
      ],
    });
    const freeId = await publishProduct(seller, { title: FREE_TITLE, price: "0" });
    await subscribeAndPay(server.baseUrl, club.id, club.tiers[0]!.id, BUYER);

    // The buyer's browser speaks German: the free claim's receipt is German, and so is the library.
    const context = await browser.newContext({
      viewport: PHONE_VIEWPORT,
      baseURL: server.baseUrl,
      locale: "de-DE",
    });
    const buyer = await context.newPage();
    await buyer.goto(`/product/${freeId}`);
    await fromPage(buyer, "POST", "/api/checkout/free", { productId: freeId, email: BUYER });
    // The membership's welcome comes from its webhook: the library shows it once it exists.
    await openEmail(buyer, `Welcome to ${CLUB}`, BUYER);
    await openEmail(buyer, `Ihre Quittung: ${FREE_TITLE}`, BUYER);
    const href = (await buyer.locator('a[href*="/library?token="]').first().getAttribute("href"))!;
    const libraryUrl = new URL(href, server.baseUrl);
    await buyer.goto(`${libraryUrl.pathname}${libraryUrl.search}`);

    await buyer.getByRole("heading", { level: 1, name: "Ihre Bibliothek" }).waitFor();
    expect(await buyer.locator("html").getAttribute("lang")).toBe("de");
    await expect.poll(() => buyer.title()).toBe("Ihre Käufe · Flatfee");
    const card = buyer.getByRole("article", { name: CLUB });
    await card.getByText("5,00 $ / Monat").waitFor();
    // Our fallback name for a store without one, in German; the creator's own words as written.
    await card.getByText(/^Digitaler Shop/).waitFor();
    await card.getByText(/^Verlängert sich am \d{2}\.\d{2}\.\d{4}$/).waitFor();
    await card.getByRole("button", { name: "Mitgliedschaft verwalten" }).waitFor();
    await card.getByRole("button", { name: "Stufe wechseln" }).waitFor();
    await buyer.getByRole("heading", { name: "Käufe" }).waitFor();
    const free = buyer.getByRole("article", { name: FREE_TITLE });
    await free.getByText("0,00 $").waitFor();
    await free.getByRole("button", { name: "Herunterladen" }).waitFor();
    await free.getByText("Noch 3 von 3 Downloads", { exact: false }).waitFor();
    const footer = buyer.getByRole("navigation", { name: "Sprache" });
    await footer.getByText("Deutsch").waitFor();
    expect(await footer.getByText("Deutsch").getAttribute("aria-current")).toBe("true");
    await checkLayout(buyer, "library-de");

    // The switch-tier dialog, in German too.
    await card.getByRole("button", { name: "Stufe wechseln" }).click();
    const dialog = buyer.getByRole("dialog", { name: "Stufe wechseln" });
    await dialog.getByText("5,00 $ / Monat oder 50,00 $ / Jahr").waitFor();
    await dialog.getByRole("button", { name: "Vorschau" }).waitFor();
    await dialog.getByRole("button", { name: "Schließen" }).waitFor();
    await screenshot(buyer, "library-de-switch-375");
    await buyer.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });

    // The footer's 日本語 is a plain link: the page loads again in Japanese, the token kept.
    await footer.getByRole("link", { name: "日本語" }).click();
    await buyer.waitForURL(
      (url) =>
        url.searchParams.get("lang") === "ja" &&
        url.searchParams.get("token") === libraryUrl.searchParams.get("token"),
    );
    await buyer.getByRole("heading", { level: 1, name: "ライブラリ" }).waitFor();
    expect(await buyer.locator("html").getAttribute("lang")).toBe("ja");
    await buyer.getByRole("article", { name: CLUB }).getByText("$5.00 / 月").waitFor();
    await buyer.getByRole("button", { name: "メンバーシップを管理" }).waitFor();
    await checkLayout(buyer, "library-ja");

    // Remembered: the receipt's link without ?lang= opens the library in Japanese, over the browser's German.
    await buyer.goto(`${libraryUrl.pathname}${libraryUrl.search}`);
    await buyer.getByRole("heading", { level: 1, name: "ライブラリ" }).waitFor();
    expect(await buyer.locator("html").getAttribute("lang")).toBe("ja");

    // The site's frame speaks it too; leaving the library for another page of the app (English)
    // restores the app's own language, frame included.
    await buyer.getByRole("link", { name: "利用規約" }).click();
    await buyer.waitForURL((url) => url.pathname === "/terms");
    await expect.poll(() => buyer.locator("html").getAttribute("lang")).toBe("en");
    await buyer.getByRole("link", { name: "Terms of Service" }).waitFor();
  });
});
