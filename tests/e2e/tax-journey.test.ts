import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfText } from "../api/support/pdf-text";
import { launchBrowser, PHONE_VIEWPORT } from "./support/browser";
import { expectToast } from "./support/memberships";
import { fromPage, publishProduct, readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

// The tax journey of issue 25: a creator in the US completes Stripe Tax's checklist in their (emulated)
// Stripe dashboard, turns collection on, sells an e-book at an exclusive price to a German consumer (VAT
// added, on the invoice) and to a French business with a valid VAT number (reverse charge on the
// invoice), refunds the first (a credit note), and downloads the quarter's tax report.
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
const TITLE = "The Tax Handbook";
const newContext = (viewport = DESKTOP): Promise<BrowserContext> =>
  browser.newContext({ viewport, baseURL: server.baseUrl });
const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/tax-${name}.png`, fullPage: true });

/** Pays on the emulator's hosted Checkout with a billing address, ticking the withdrawal waiver. */
async function payWithAddress(
  page: Page,
  buyer: { email: string; name: string; country: string; postal: string; line1: string; city: string },
  total: string,
) {
  await page.getByLabel("Card number").waitFor();
  await page.getByLabel("Email").fill(buyer.email);
  await page.getByLabel("Full name").fill(buyer.name);
  await page.getByLabel("Country or region").selectOption(buyer.country);
  await page.getByLabel("Postal code").fill(buyer.postal);
  await page.getByLabel("Address", { exact: true }).fill(buyer.line1);
  await page.getByLabel("City", { exact: true }).fill(buyer.city);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiration date").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("checkbox", { name: /right of withdrawal/ }).check();
  await page.getByTestId("total").getByText(total).waitFor();
  await page.getByRole("button", { name: /^Pay / }).click();
  await page.waitForURL((url) => url.pathname === "/success");
  await page.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor({ timeout: 20_000 });
}

/** The success page's invoice PDF, as the buyer downloads it, read back as text. */
async function invoiceTextOf(page: Page): Promise<string> {
  const href = await page.getByRole("link", { name: "Invoice (PDF)" }).getAttribute("href");
  const response = await page.request.get(href!);
  expect(response.headers()["content-type"]).toContain("application/pdf");
  return pdfText(await response.body());
}

describe("tax from the checklist to the quarter's report", () => {
  it("checklist, collection on, a German consumer and a French business, a refund, the report", async () => {
    // 1. The creator: a PDF e-book at $20.00, and the tax page saying what Stripe Tax still needs.
    const sellerContext = await newContext();
    const seller = await sellerContext.newPage();
    const ready = await readySeller(seller, server);
    const productId = await publishProduct(seller, { title: TITLE, price: "20.00" });

    await seller.goto("/dashboard/tax");
    await seller.getByText("Not ready").waitFor();
    const collect = seller.getByRole("checkbox", { name: /Collect tax automatically/ });
    expect(await collect.isDisabled()).toBe(true);
    await shot(seller, "1-checklist");
    const fix = seller.getByRole("link", { name: /Open in Stripe/ }).first();
    const stripeDashboard = (await fix.getAttribute("href"))!;
    expect(stripeDashboard.startsWith(ready.emulatorUrl)).toBe(true);

    // 2. In their Stripe dashboard: the head office (New York), then a non-Union OSS registration.
    const stripePage = await sellerContext.newPage();
    await stripePage.goto(stripeDashboard);
    await stripePage.getByLabel("Country").first().selectOption("US");
    await stripePage.locator("#ho-state").selectOption("NY");
    await stripePage.getByRole("button", { name: "Save head office" }).click();
    await stripePage.locator("#reg-country").selectOption("IE");
    await stripePage.locator("#reg-type").selectOption("oss_non_union");
    await stripePage.getByRole("button", { name: "Add registration (active now)" }).click();
    await stripePage.getByRole("button", { name: /End the .* registration/ }).waitFor();
    await stripePage.close();

    // 3. Back on Flatfee: checked again, collection on, the invoices' legal details.
    await seller.getByRole("button", { name: "Check again" }).click();
    await seller.getByText("Active", { exact: true }).waitFor();
    await collect.check();
    await seller.getByLabel("Legal name").fill("Handbook Studio LLC");
    await seller.getByLabel("Address", { exact: true }).fill("1 Main Street\nNew York, NY 10001\nUSA");
    await seller.getByRole("button", { name: "Save tax settings" }).click();
    await expectToast(seller, "Tax settings saved");
    await shot(seller, "2-collecting");
    const phone = await newContext(PHONE_VIEWPORT);
    await phone.addCookies(await sellerContext.cookies());
    const sellerPhone = await phone.newPage();
    await sellerPhone.goto("/dashboard/tax");
    await sellerPhone.getByText("Active", { exact: true }).waitFor();
    expect(await sellerPhone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await sellerPhone.screenshot({ path: "/tmp/tax-2-collecting-phone.png", fullPage: true });

    // 4. A German consumer: the page says "+ tax", Checkout adds 19% VAT, the invoice shows it.
    const germanContext = await newContext();
    const german = await germanContext.newPage();
    await german.goto(`/product/${productId}`);
    await german.getByText("+ tax").waitFor();
    await shot(german, "3-product-page");
    await german.getByRole("button", { name: "Buy Now" }).click();
    await payWithAddress(
      german,
      {
        email: "anna@example.de",
        name: "Anna Schmidt",
        country: "DE",
        postal: "10115",
        line1: "Invalidenstraße 1",
        city: "Berlin",
      },
      "$23.80",
    );
    await german.getByText("VAT 19% (DE)").waitFor();
    await shot(german, "4-success-german");
    const germanInvoice = await invoiceTextOf(german);
    expect(germanInvoice).toContain("Handbook Studio LLC");
    expect(germanInvoice).toContain("Anna Schmidt");
    expect(germanInvoice).toMatch(/VAT 19%/);
    expect(germanInvoice).toContain("$3.80");
    expect(germanInvoice).toContain("$23.80");
    expect(germanInvoice).toMatch(/14-day right of withdrawal/);

    // 5. A French business with a VAT number VIES knows: reverse charged, said on the invoice.
    const frenchContext = await newContext();
    const french = await frenchContext.newPage();
    await french.goto(`/product/${productId}`);
    await french.getByText("Buying for a business?").click();
    await french.getByLabel("Business name").fill("Atelier SARL");
    await french.getByLabel(/VAT number/).fill("FR40303265045");
    await shot(french, "5-business-fields");
    await french.getByRole("button", { name: "Buy Now" }).click();
    await payWithAddress(
      french,
      {
        email: "compta@atelier.example.fr",
        name: "Claire Martin",
        country: "FR",
        postal: "75001",
        line1: "1 rue de Rivoli",
        city: "Paris",
      },
      "$20.00",
    );
    await french.getByText("Reverse charge").first().waitFor();
    const frenchInvoice = await invoiceTextOf(french);
    expect(frenchInvoice).toContain("Atelier SARL");
    expect(frenchInvoice).toContain("FR40303265045");
    expect(frenchInvoice).toMatch(/Reverse charge/i);

    // 6. The creator refunds the German sale: a credit note with its own number.
    const sales = (await fromPage(seller, "GET", "/api/orders")) as {
      sales: Array<{ id: string; customerEmail: string }>;
    };
    const germanSale = sales.sales.find((sale) => sale.customerEmail === "anna@example.de")!;
    await fromPage(seller, "POST", `/api/orders/${germanSale.id}/refund`);
    await seller.goto("/dashboard/invoices");
    await seller
      .getByRole("link", { name: /Download credit note/ })
      .first()
      .waitFor({ timeout: 20_000 });
    expect(await seller.getByRole("link", { name: /Download invoice/ }).count()).toBe(2);
    await shot(seller, "6-invoices");

    // 7. The quarter's report: its totals match the orders, and its CSV says the same.
    await seller.goto("/dashboard/tax/report");
    await seller.getByRole("link", { name: "Download CSV" }).waitFor();
    await shot(seller, "7-report");
    const csvHref = await seller.getByRole("link", { name: "Download CSV" }).getAttribute("href");
    const csv = await (await seller.request.get(csvHref!)).text();
    const rows = csv.trim().split("\n");
    const header = rows[0]!.split(",");
    const column = (row: string, name: string) => row.split(",")[header.indexOf(name)];
    const germany = rows.find((row) => row.startsWith("DE,"))!;
    const france = rows.find((row) => row.startsWith("FR,"))!;
    expect(column(germany, "Net sales")).toBe("20.00");
    expect(column(germany, "Tax")).toBe("3.80");
    expect(column(germany, "Refunds net")).toBe("-20.00");
    expect(column(germany, "Refunds tax")).toBe("-3.80");
    expect(column(france, "Reverse-charge net")).toBe("20.00");
    expect(column(france, "Tax")).toBe("0.00");
  });
});
