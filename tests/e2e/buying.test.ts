import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_MESSAGES } from "../../src/contracts/orders";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { publishProduct, readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

const BUYER_EMAIL = "buyer@example.com";
const TITLE = "Watercolour Basics Guide";
const DESKTOP = { width: 1280, height: 900 };

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

async function newPage(viewport = DESKTOP, timezoneId?: string, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    baseURL: server.baseUrl,
    javaScriptEnabled,
    ...(timezoneId ? { timezoneId } : {}),
  });
  contexts.push(context);
  return context.newPage();
}

/** A small valid PDF with correct xref offsets. */
function pdfFile(): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
  ];
  let body = "%PDF-1.4\n% buying journey\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body);
}

/** The product these journeys buy, published as the new product form does. */
const createProduct = (page: Page, file: Buffer, stock: number | null = null) =>
  publishProduct(page, { title: TITLE, description: "Twelve lessons.", price: "9.99", file, stock });

async function expectToast(page: Page, title: string, description?: string) {
  const toasts = page.locator("[data-sonner-toast]");
  const toast = toasts.filter({ hasText: title }).last();
  await toast.waitFor().catch(async (error: Error) => {
    throw new Error(`${error.message}\nToasts on screen: ${JSON.stringify(await toasts.allInnerTexts())}`);
  });
  if (description) await toast.getByText(description, { exact: true }).waitFor();
}

/**
 * Presses a Download button: a form that counts the download and answers 303 to the file, which the
 * browser downloads while staying on the page. Answers the downloaded bytes.
 */
async function downloadWith(page: Page, button: ReturnType<Page["getByRole"]>): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  expect(download.suggestedFilename()).toBe("guide.pdf");
  return readFile(await download.path());
}

function statCard(page: Page, title: string) {
  return page.getByRole("group", { name: title });
}

describe("buying and delivery", () => {
  it("no session id on /success is the not-found state at once; a forged link is refused", async () => {
    const page = await newPage(PHONE_VIEWPORT);
    await page.goto("/success");
    await page.getByRole("heading", { name: ORDER_MESSAGES.notFound }).waitFor();
    await screenshot(page, "buying-success-not-found-phone");
    await page.getByRole("link", { name: "Return to Home" }).click();
    await page.waitForURL(`${server.baseUrl}/`);

    await page.goto("/download/not-a-real-token");
    await page.getByRole("heading", { name: "Invalid download link" }).waitFor();
    await page.getByText(ORDER_MESSAGES.linkInvalid).waitFor();
    await screenshot(page, "buying-invalid-link-phone");
  });

  it("a buyer with no account pays with 4242, downloads the file, finds the receipt and library; the seller sees it live, exports, resets and refunds", async () => {
    const pdf = pdfFile();
    // Half an hour off UTC, so a date in the wrong time zone cannot pass for the right one.
    const seller = await newPage(DESKTOP, "Asia/Kolkata");
    await readySeller(seller, server);
    const productId = await createProduct(seller, pdf);

    const sales = seller.getByRole("region", { name: "Customer Sales" });
    await sales.getByText("No sales yet").waitFor();
    await sales.getByRole("button", { name: "Export CSV" }).click();
    await expectToast(seller, ORDER_MESSAGES.noDataTitle, ORDER_MESSAGES.noData);

    // The buyer: a fresh phone-sized browser with no account.
    const buyer = await newPage(PHONE_VIEWPORT);
    await buyer.goto(`/product/${productId}`);
    await buyer.getByRole("heading", { name: TITLE }).waitFor();
    await buyer.getByRole("button", { name: "Buy Now" }).click();
    await buyer.getByLabel("Card number").waitFor();
    expect(new URL(buyer.url()).origin).not.toBe(server.baseUrl);
    await buyer.getByLabel("Email").fill(BUYER_EMAIL);
    await buyer.getByLabel("Card number").fill("4242 4242 4242 4242");
    await buyer.getByLabel("Expiration date").fill("12 / 34");
    await buyer.getByLabel("CVC").fill("123");
    // The EU withdrawal waiver, asked before paying for a download.
    await buyer.getByRole("checkbox", { name: /right of withdrawal/ }).check();
    await buyer.getByRole("button", { name: "Pay $9.99" }).click();

    await buyer.waitForURL((url) => url.pathname === "/success" && url.searchParams.has("session_id"));
    await buyer.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor();
    await buyer.getByText(TITLE, { exact: true }).waitFor();
    await buyer.getByText("$9.99").waitFor();
    await buyer.getByText(BUYER_EMAIL, { exact: true }).first().waitFor();
    await buyer.getByRole("main").getByText("3 of 3 downloads left", { exact: false }).waitFor();

    // The seller's dashboard shows the sale without a reload.
    await sales.getByText(BUYER_EMAIL).waitFor();
    await sales.getByText("Completed").waitFor();
    await statCard(seller, "Units Sold").getByText("1", { exact: true }).waitFor();
    await statCard(seller, "Total Revenue").getByText("$9.99").waitFor();

    const downloaded = await downloadWith(buyer, buyer.getByRole("button", { name: "Download Your File" }));
    expect(downloaded.equals(pdf)).toBe(true);
    await buyer.reload();
    await buyer.getByRole("main").getByText("2 of 3 downloads left", { exact: false }).waitFor();
    await screenshot(buyer, "buying-success-phone");

    // The receipt, and the library behind its link.
    await buyer.goto("/dev/mailbox");
    await buyer.getByRole("link", { name: new RegExp(`Your receipt: ${TITLE}.*${BUYER_EMAIL}`) }).click();
    const downloadLink = await buyer.getByRole("link", { name: "Download your file" }).getAttribute("href");
    expect(downloadLink).toMatch(/\/download\//);
    await buyer.getByRole("link", { name: "All your purchases (your library)" }).click();
    await buyer.waitForURL((url) => url.pathname === "/library" && url.searchParams.has("token"));
    await buyer.getByRole("heading", { name: "Your purchases" }).waitFor();
    const card = buyer.getByRole("article", { name: TITLE });
    await card.getByText("2 of 3 downloads left", { exact: false }).waitFor();
    await card.getByText("$9.99").waitFor();
    await screenshot(buyer, "buying-library-phone");

    // Lost the receipt: 'Resend my download link' on the product page mails a fresh one.
    await buyer.goto(`/product/${productId}`);
    await buyer.getByRole("button", { name: "Resend my download link" }).click();
    const resend = buyer.getByRole("dialog", { name: "Resend my download link" });
    await resend.getByLabel("Email you bought with").fill(BUYER_EMAIL);
    await resend.getByRole("button", { name: "Email me a new link" }).click();
    // The form posts to the server, which answers the page with the panel open and its answer.
    const resent = buyer.getByRole("region", { name: "Resend my download link" });
    await resent.getByText(ORDER_MESSAGES.resendSent).waitFor();
    await screenshot(buyer, "buying-resend-phone");
    await buyer.goto("/dev/mailbox");
    await buyer.getByRole("link", { name: new RegExp(`Your download link: ${TITLE}`) }).waitFor();

    // The CSV export, dates in the browser's time zone.
    const [csvDownload] = await Promise.all([
      seller.waitForEvent("download"),
      sales.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    await expectToast(seller, ORDER_MESSAGES.exportedTitle, ORDER_MESSAGES.exported);
    expect(csvDownload.suggestedFilename()).toMatch(/^customer-sales-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await csvDownload.path(), "utf8");
    const [header, row, ...rest] = csv.trim().split("\n");
    expect(header).toBe(
      "Customer Email,Product,Amount,Date,Discount Code,Amount Saved,Period Start,Period End,Tax,Tax Rate,Tax Jurisdiction,Buyer Country,Tax Note,Currency,Settled,Settlement Currency,Dispute",
    );
    const date =
      /^buyer@example\.com,Watercolour Basics Guide,9\.99,"([A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2})",,0\.00,,,0\.00,,,,,USD,9\.99,USD,$/.exec(
        row ?? "",
      )?.[1];
    expect(date, row).toBeDefined();
    // The same minute the table shows in the seller's time zone.
    await sales.getByText(date ?? "").waitFor();
    expect(rest).toEqual([]);

    // The download page: two more downloads use up the three, the fourth is refused.
    const downloadPage = new URL(downloadLink ?? "", server.baseUrl).pathname;
    await buyer.goto(downloadPage);
    await buyer.getByText("guide.pdf").waitFor();
    await buyer.getByRole("main").getByText("2 of 3 downloads left", { exact: false }).waitFor();
    await screenshot(buyer, "buying-download-phone");
    const download = buyer.getByRole("button", { name: "Download", exact: true });
    expect((await downloadWith(buyer, download)).equals(pdf)).toBe(true);
    await buyer.reload();
    await buyer.getByRole("main").getByText("1 of 3 downloads left", { exact: false }).waitFor();
    expect((await downloadWith(buyer, download)).equals(pdf)).toBe(true);
    // The page still offers the button until it is reloaded: pressing it is refused with the reason.
    await download.click();
    // Per file: the page says why and shows the file's downloads used up (other files would stay offered).
    await buyer.getByRole("alert").getByText(ORDER_MESSAGES.limitReached).waitFor();
    await buyer.getByText("All downloads used").waitFor();
    await screenshot(buyer, "buying-limit-phone");

    // The seller gives the downloads back; the same link works again. (Downloads send no live event.)
    await seller.reload();
    await sales.getByText("3 / 3").waitFor();
    await sales.getByRole("button", { name: `Actions for the sale to ${BUYER_EMAIL}` }).click();
    await seller.getByRole("menuitem", { name: "Reset downloads" }).click();
    await expectToast(seller, ORDER_MESSAGES.downloadsResetTitle);
    await sales.getByText("0 / 3").waitFor();
    await buyer.goto(downloadPage);
    await buyer.getByRole("main").getByText("3 of 3 downloads left", { exact: false }).waitFor();
    expect((await downloadWith(buyer, download)).equals(pdf)).toBe(true);

    // The refund, confirmed first; the buyer's link stops working at once.
    await sales.getByRole("button", { name: `Actions for the sale to ${BUYER_EMAIL}` }).click();
    await seller.getByRole("menuitem", { name: "Refund" }).click();
    const confirm = seller.getByRole("alertdialog");
    await confirm.getByText(ORDER_MESSAGES.refundConfirm).waitFor();
    await screenshot(seller, "buying-refund-confirm");
    await confirm.getByRole("button", { name: "Refund" }).click();
    await expectToast(seller, ORDER_MESSAGES.refundedTitle);
    await sales.getByText("Refunded").waitFor();
    await statCard(seller, "Units Sold").getByText("0", { exact: true }).waitFor();
    await screenshot(seller, "buying-dashboard-sales");

    await buyer.goto(downloadPage);
    await buyer.getByRole("heading", { name: "This purchase was refunded" }).waitFor();
    await buyer.getByText(ORDER_MESSAGES.refunded).waitFor();
    await screenshot(buyer, "buying-refunded-phone");

    // The seller's table on a phone: one card per sale.
    await seller.setViewportSize(PHONE_VIEWPORT);
    await sales.getByText(BUYER_EMAIL).waitFor();
    await screenshot(seller, "buying-dashboard-sales-phone");
  });

  it("the last unit taken while the page is open: Buy Now says it just sold out and the page shows SOLD OUT", async () => {
    const seller = await newPage();
    await readySeller(seller, server);
    const productId = await createProduct(seller, pdfFile(), 1);

    const late = await newPage(PHONE_VIEWPORT);
    await late.goto(`/product/${productId}`);
    await late.getByText("Only 1 left in stock").waitFor();

    const first = await newPage();
    await first.goto(`/product/${productId}`);
    await first.getByRole("button", { name: "Buy Now" }).click();
    await first.getByLabel("Card number").waitFor();

    // Buy Now is a form: the server answers the page again, with the refusal and the stock as it is now.
    await late.getByRole("button", { name: "Buy Now" }).click();
    await late.getByRole("alert").getByText(ORDER_MESSAGES.soldOut).waitFor();
    await late.getByRole("button", { name: "Sold Out" }).waitFor();
    expect(await late.getByRole("button", { name: "Sold Out" }).isDisabled()).toBe(true);
  });

  it("with JavaScript off: Buy Now, pay on Checkout, the success page finds the order and the file downloads", async () => {
    const pdf = pdfFile();
    const seller = await newPage();
    await readySeller(seller, server);
    const productId = await createProduct(seller, pdf);

    for (const viewport of [PHONE_VIEWPORT, DESKTOP]) {
      const buyer = await newPage(viewport, undefined, false);
      const size = `${viewport.width}`;
      await buyer.goto(`/product/${productId}`);
      await buyer.getByRole("button", { name: "Buy Now" }).click();
      await buyer.getByLabel("Card number").waitFor();
      await buyer.getByLabel("Email").fill(BUYER_EMAIL);
      await buyer.getByLabel("Card number").fill("4242 4242 4242 4242");
      await buyer.getByLabel("Expiration date").fill("12 / 34");
      await buyer.getByLabel("CVC").fill("123");
      // The EU withdrawal waiver, asked before paying for a download.
      await buyer.getByRole("checkbox", { name: /right of withdrawal/ }).check();
      await buyer.getByRole("button", { name: "Pay $9.99" }).click();

      await buyer.waitForURL((url) => url.pathname === "/success" && url.searchParams.has("session_id"));
      await buyer.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor();
      await buyer.getByRole("main").getByText("3 of 3 downloads left", { exact: false }).waitFor();
      await screenshot(buyer, `buying-nojs-success-${size}`);
      const downloaded = await downloadWith(buyer, buyer.getByRole("button", { name: "Download Your File" }));
      expect(downloaded.equals(pdf)).toBe(true);

      const downloadPath = await buyer.locator("main form").getAttribute("action");
      await buyer.goto(downloadPath ?? "");
      await buyer.getByRole("main").getByText("2 of 3 downloads left", { exact: false }).waitFor();
      await screenshot(buyer, `buying-nojs-download-${size}`);
      expect(
        (await downloadWith(buyer, buyer.getByRole("button", { name: "Download", exact: true }))).equals(pdf),
      ).toBe(true);
    }
  });

  it("while the order is processing, /success refreshes itself without JavaScript", async () => {
    const buyer = await newPage(DESKTOP, undefined, false);
    await buyer.goto("/success?session_id=cs_test_unknown&try=8");
    // No screenshot here: the page reloads itself while one would be taken.
    await buyer.getByRole("heading", { name: ORDER_MESSAGES.processing }).waitFor();
    // Two refreshes later the tries are used up.
    await buyer.getByRole("heading", { name: ORDER_MESSAGES.notFound }).waitFor({ timeout: 30_000 });
    expect(new URL(buyer.url()).searchParams.get("try")).toBe("10");
  });
});
