import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { publishProduct, type ReadySeller, readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

let server: E2EServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

let buyer = 0;

/**
 * A buyer opens the product from a link (its utm fields, the site it was on) in a browser of their
 * own, presses Buy Now (the page's form) and pays on the emulator. Their user agent is an ordinary
 * browser's (a headless one is not counted as a visitor), one per buyer since they share an address.
 */
async function buyFromLink(
  seller: ReadySeller,
  productId: string,
  link: { query: string; referer?: string },
): Promise<void> {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.${++buyer} Safari/537.36`,
  });
  const page = await context.newPage();
  const viewed = page.waitForResponse((response) => response.url().endsWith(`/products/${productId}/views`));
  await page.goto(`/product/${productId}${link.query}`, link.referer ? { referer: link.referer } : {});
  expect((await viewed).status()).toBe(204);
  await page.getByRole("button", { name: "Buy Now" }).click();
  await page.waitForURL((url) => url.origin === seller.emulatorUrl);
  const sessionId = new URL(page.url()).pathname.split("/").pop() ?? "";
  const paid = await fetch(`${seller.emulatorUrl}/_emulator/checkout/sessions/${sessionId}/complete`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ card: "4242424242424242", email: `buyer-${buyer}@example.com` }),
  });
  expect(paid.status).toBe(200);
  await context.close();
}

const sourceRows = (page: Page) => page.getByTestId("source-row");
const cellsOf = (row: Locator) => row.locator("th, td").allTextContents();
/** The big number of a totals card. */
const totalOf = (page: Page, title: string) =>
  page.getByRole("group", { name: title }).locator("p").nth(1).textContent();

async function expectSources(page: Page) {
  const rows = sourceRows(page);
  await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
  // Ordered by revenue: two sales from the newsletter, one from t.co with utm_source=twitter.
  await expect
    .poll(() => cellsOf(rows.nth(0)), { timeout: 10_000 })
    .toEqual(["newsletteremail · spring", "2", "2", "$50.00"]);
  expect(await cellsOf(rows.nth(1))).toEqual(["t.cotwitter", "1", "1", "$25.00"]);
}

describe("analytics", () => {
  it("shows sales from links with different utm_source in the chart and the sources table, live, on desktop and phone", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: server.baseUrl,
    });
    const page = await context.newPage();
    const seller = await readySeller(page, server);
    const productId = await publishProduct(page, { title: "Watercolour Guide", price: "25.00" });

    // From the dashboard, before any sale.
    await page.getByRole("link", { name: "Analytics" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard/analytics`);
    await page.getByRole("heading", { level: 1, name: "Analytics" }).waitFor();
    await page.getByText("No visits in this period yet.").waitFor();

    // Three buyers while the page stays open: it follows each sale without a reload.
    await buyFromLink(seller, productId, {
      query: "?utm_source=newsletter&utm_medium=email&utm_campaign=spring",
    });
    await buyFromLink(seller, productId, {
      query: "?utm_source=newsletter&utm_medium=email&utm_campaign=spring",
    });
    await buyFromLink(seller, productId, { query: "?utm_source=twitter", referer: "https://t.co/x1y2z3" });
    await expectSources(page);

    // The revenue chart has today's bar, and its text alternative says the total.
    const revenueChart = page.getByRole("img", { name: /^Revenue per day/ });
    await expect.poll(() => revenueChart.getAttribute("aria-label")).toMatch(/\$75\.00 in total/);
    const bars = revenueChart.locator("rect");
    expect(await bars.count()).toBe(30);
    expect(await bars.last().locator("title").textContent()).toMatch(/: \$75\.00$/);
    expect(await totalOf(page, "Units sold")).toBe("3");
    expect(await totalOf(page, "Product page views")).toBe("3");
    expect(await totalOf(page, "Conversion")).toBe("100%");

    // The charts' numbers as a table.
    await page.getByText("The charts' numbers per day").click();
    const today = await cellsOf(page.locator("details table tbody tr").last());
    expect(today.slice(1)).toEqual(["$75.00", "3", "3", "0"]);
    await expectAccessible(page, "analytics (desktop)");
    await expectNoSidewaysOverflow(page, "analytics (desktop)");
    await screenshot(page, "analytics-desktop");

    // The period and product filters.
    await page.getByRole("combobox", { name: "Period", exact: true }).selectOption("365d");
    await page.getByRole("img", { name: /^Revenue per week/ }).waitFor();
    await page
      .getByRole("combobox", { name: "Product", exact: true })
      .selectOption({ label: "Watercolour Guide" });
    await page.waitForURL(/period=365d&product=/);
    await expectSources(page);

    // A phone.
    await page.setViewportSize(PHONE_VIEWPORT);
    await page.reload();
    await expectSources(page);
    await page.getByRole("img", { name: /^Revenue per week/ }).waitFor();
    await expectAccessible(page, "analytics (375 px)");
    await expectNoSidewaysOverflow(page, "analytics (375 px)");
    await screenshot(page, "analytics-phone");
    await context.close();
  }, 240_000);
});

describe("the seller app's navigation", () => {
  it("holds every section, grouped, marks the current one, and is a menu on a phone", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: server.baseUrl,
    });
    const page = await context.newPage();
    await readySeller(page, server);
    await page.goto("/dashboard");
    const nav = page.getByRole("navigation", { name: "Seller" });
    await nav.waitFor();
    expect(await nav.getByRole("link").allTextContents()).toEqual([
      "Dashboard",
      "New Product",
      "Store Settings",
      "Reports",
      "Customers",
      "Members",
      "Posts",
      "Analytics",
      "Discount codes",
      "Tax settings",
      "Invoices",
      "Tax report",
      "Tax guide",
      "Webhooks",
    ]);
    expect(await nav.getByText("Sales", { exact: true }).count()).toBe(1);
    const current = () => nav.locator('[aria-current="page"]').allTextContents();
    expect(await current()).toEqual(["Dashboard"]);
    await nav.getByRole("link", { name: "Webhooks" }).click();
    await page.waitForURL("**/dashboard/webhooks");
    await expect.poll(current).toEqual(["Webhooks"]);
    await page.goto("/dashboard/customers/email");
    await expect.poll(current).toEqual(["Customers"]);
    await expectAccessible(page, "seller navigation (1280 px)");
    await screenshot(page, "seller-navigation-desktop");

    // A phone: the same sections behind the menu button; choosing one goes there and closes the menu.
    await page.setViewportSize(PHONE_VIEWPORT);
    await expect.poll(() => nav.count()).toBe(0);
    await page.getByRole("button", { name: "Open menu" }).click();
    await nav.waitFor();
    await expectAccessible(page, "seller navigation menu (375 px)");
    await expectNoSidewaysOverflow(page, "seller navigation menu (375 px)");
    await screenshot(page, "seller-navigation-phone");
    await nav.getByRole("link", { name: "Discount codes" }).click();
    await page.waitForURL("**/dashboard/discounts");
    await expect.poll(() => nav.count()).toBe(0);
    await context.close();
  });
});
