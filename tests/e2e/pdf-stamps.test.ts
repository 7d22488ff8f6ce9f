import { readFile } from "node:fs/promises";
import { PDFDocument } from "pdf-lib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PDF_STAMP_MESSAGES, stampLine } from "../../src/contracts/pdf-stamps";
import { PRODUCT_MESSAGES } from "../../src/contracts/products";
import { handWrittenPdf, samplePdf } from "../../src/server/features/pdf-stamps/test-pdfs";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { buyProduct, fromPage, readySeller } from "./support/seller";
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

const DESKTOP = { width: 1280, height: 900 };
const BUYER_EMAIL = "stamped-buyer@example.com";

async function newPage(viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl, acceptDownloads: true });
  return context.newPage();
}

describe("stamped PDFs", () => {
  it("a seller turns stamping on; the buyer's PDF carries their email and still opens; the seller sees what failed", async () => {
    const book = await samplePdf({ pages: 3 });
    const locked = handWrittenPdf("/Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >> ");

    // The seller publishes two PDFs with "Stamp PDFs with the buyer's email" on.
    const seller = await newPage();
    await readySeller(seller, server);
    await seller.goto("/new");
    await seller.getByLabel("Product Title *").fill("Stamped Field Guide");
    await seller.getByLabel("Price (USD) *").fill("15.00");
    await seller.getByLabel("Digital File *").setInputFiles([
      { name: "field-guide.pdf", mimeType: "application/pdf", buffer: book },
      { name: "answers.pdf", mimeType: "application/pdf", buffer: locked },
    ]);
    await seller.getByLabel(PDF_STAMP_MESSAGES.settingLabel).check();
    await seller.getByRole("button", { name: "Publish Product" }).click();
    await seller.locator("[data-sonner-toast]").filter({ hasText: PRODUCT_MESSAGES.createdTitle }).waitFor();
    const live = seller.getByRole("region", { name: "Your product is live!" });
    const productId = (await live.getByLabel("Product link").inputValue()).split("/").pop()!;

    // The buyer pays; the copies are stamped in the background (the encrypted one can't be).
    const sessionId = await buyProduct(server, productId, BUYER_EMAIL);
    await expect
      .poll(
        async () => {
          const status = (await fromPage(seller, "GET", `/api/products/${productId}/pdf-stamps`)) as {
            stampedCount: number;
            problems: unknown[];
          };
          return [status.stampedCount, status.problems.length];
        },
        { timeout: 20_000 },
      )
      .toEqual([1, 1]);

    const buyer = await newPage(PHONE_VIEWPORT);
    await buyer.goto(`/success?session_id=${sessionId}`);
    await buyer.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor();
    const downloadPath = await buyer.locator('form[action^="/download/"]').first().getAttribute("action");
    await buyer.goto(downloadPath!);
    const [stamped] = await Promise.all([
      buyer.waitForEvent("download"),
      buyer.getByRole("button", { name: /^Download\b.*field-guide\.pdf$/ }).click(),
    ]);
    const bytes = await readFile(await stamped.path());
    const orderId = (await fromPage(seller, "GET", `/api/products/${productId}/pdf-stamps`)) as {
      problems: { orderId: string }[];
    };
    const line = stampLine(BUYER_EMAIL, orderId.problems[0]!.orderId).replace("·", "\xb7");
    expect(bytes.includes(Buffer.from(line, "latin1"))).toBe(true);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(3);
    const [original] = await Promise.all([
      buyer.waitForEvent("download"),
      buyer.getByRole("button", { name: /^Download\b.*answers\.pdf$/ }).click(),
    ]);
    expect((await readFile(await original.path())).equals(locked)).toBe(true);

    // The edit page says which files are stamped, how many copies were made, and what failed.
    await seller.goto(`/dashboard/products/${productId}/edit`);
    await expect.poll(() => seller.getByLabel(PDF_STAMP_MESSAGES.settingLabel).isChecked()).toBe(true);
    const files = seller.getByRole("list", { name: "Which files are stamped" });
    await files.waitFor();
    expect(await files.getByRole("listitem").allInnerTexts()).toEqual([
      expect.stringContaining("Stamped for each buyer"),
      expect.stringContaining(PDF_STAMP_MESSAGES.reasons.encrypted),
    ]);
    await seller.getByText("1 copy stamped.").waitFor();
    const problems = seller.getByRole("status").filter({ hasText: "Some copies could not be stamped" });
    await problems.getByText(PDF_STAMP_MESSAGES.reasons.encrypted, { exact: false }).waitFor();
    expect(await problems.textContent()).toContain(`answers.pdf for ${BUYER_EMAIL}`);
    const setting = seller.getByLabel(PDF_STAMP_MESSAGES.settingLabel);
    for (const viewport of [DESKTOP, PHONE_VIEWPORT]) {
      await seller.setViewportSize(viewport);
      await expectAccessible(seller, `edit page with stamping ${viewport.width}px`);
      await expectNoSidewaysOverflow(seller, `edit page with stamping ${viewport.width}px`);
      await setting.scrollIntoViewIfNeeded();
      await screenshot(seller, `stamps-edit-${viewport.width}`);
    }

    // Switched off, the PDF is no longer said to be stamped (before and after saving).
    await setting.uncheck();
    const offList = [
      expect.stringContaining(PDF_STAMP_MESSAGES.stampingOff),
      expect.stringContaining(PDF_STAMP_MESSAGES.reasons.encrypted),
    ];
    expect(await files.getByRole("listitem").allInnerTexts()).toEqual(offList);
    await seller.getByRole("button", { name: "Save Changes" }).click();
    await expect
      .poll(
        async () =>
          (
            (await fromPage(seller, "GET", `/api/products/${productId}/pdf-stamps`)) as {
              stampPdfs: boolean;
            }
          ).stampPdfs,
      )
      .toBe(false);
    await seller.goto(`/products/${productId}/edit`);
    await files.waitFor();
    expect(await files.getByRole("listitem").allInnerTexts()).toEqual(offList);
    expect(await seller.getByText("Stamped for each buyer").count()).toBe(0);
    for (const viewport of [DESKTOP, PHONE_VIEWPORT]) {
      await seller.setViewportSize(viewport);
      await setting.scrollIntoViewIfNeeded();
      await screenshot(seller, `stamps-edit-off-${viewport.width}`);
    }
  });
});
