import { readFile } from "node:fs/promises";
import type { Browser, Download, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_MESSAGES } from "../../src/contracts/products";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { buyProduct, readySeller } from "./support/seller";
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
const BUYER_EMAIL = "pack-buyer@example.com";
const TITLE = "Watercolor Course Pack";

/** A small valid PDF whose bytes say which file it is. */
const pdf = (label: string) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n% ${label}\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`,
  );
const asUpload = (name: string) => ({ name, mimeType: "application/pdf", buffer: pdf(name) });

async function newPage(viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl, acceptDownloads: true });
  return context.newPage();
}

async function expectToast(page: Page, title: string) {
  await page.locator("[data-sonner-toast]").filter({ hasText: title }).last().waitFor();
}

/** Presses a file's Download button and answers the saved file's name and bytes. */
async function download(page: Page, button: ReturnType<Page["getByRole"]>) {
  const [file] = await Promise.all([page.waitForEvent("download"), button.click()]);
  return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
}

/** Accessible and no wider than the screen, at 1280 and 375 px. */
async function checkBothSizes(page: Page, name: string) {
  for (const viewport of [DESKTOP, PHONE_VIEWPORT]) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `${name} ${viewport.width}px`);
    await expectNoSidewaysOverflow(page, `${name} ${viewport.width}px`);
    await screenshot(page, `files-${name}-${viewport.width}`);
  }
  await page.setViewportSize(DESKTOP);
}

describe("a product with several files", () => {
  it("is published with three files, bought and downloaded whole; a fourth added later reaches the buyer", async () => {
    // The seller publishes three files, renames one and moves the last to the front.
    const seller = await newPage();
    await readySeller(seller, server);
    await seller.goto("/new");
    await seller.getByLabel("Product Title *").fill(TITLE);
    await seller.getByLabel("Price (USD) *").fill("24.00");
    await seller
      .getByLabel("Digital File *")
      .setInputFiles([asUpload("lesson-1.pdf"), asUpload("lesson-2.pdf"), asUpload("palettes.pdf")]);
    const list = seller.getByRole("list", { name: "Product files" });
    await expect.poll(() => list.getByRole("listitem").count()).toBe(3);
    await seller.getByLabel("Name buyers see for file 2").fill("Lesson 2 - Washes");
    await seller.getByRole("button", { name: "Move palettes.pdf up" }).click();
    await seller.getByRole("button", { name: "Move palettes.pdf up" }).click();
    await screenshot(seller, "files-new-product");
    await seller.getByRole("button", { name: "Publish Product" }).click();
    await expectToast(seller, PRODUCT_MESSAGES.createdTitle);
    const live = seller.getByRole("region", { name: "Your product is live!" });
    const productId = (await live.getByLabel("Product link").inputValue()).split("/").pop()!;

    // The buyer pays with 4242; the success page lists the three files, each with its own button.
    const sessionId = await buyProduct(server, productId, BUYER_EMAIL);
    const buyer = await newPage(PHONE_VIEWPORT);
    await buyer.goto(`/success?session_id=${sessionId}`);
    await buyer.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor();
    const files = buyer.getByRole("list", { name: "Files" });
    expect(await files.getByRole("listitem").allInnerTexts()).toEqual([
      expect.stringContaining("palettes.pdf"),
      expect.stringContaining("lesson-1.pdf"),
      expect.stringContaining("Lesson 2 - Washes"),
    ]);
    const downloadPath = await buyer.locator('form[action^="/download/"]').first().getAttribute("action");

    // The download page: every file with its size, downloaded one by one with its own bytes and name.
    await buyer.goto(downloadPath!);
    await buyer.getByRole("heading", { name: TITLE }).waitFor();
    await checkBothSizes(buyer, "download-page");
    for (const [button, name, source] of [
      ["palettes.pdf", "palettes.pdf", "palettes.pdf"],
      ["lesson-1.pdf", "lesson-1.pdf", "lesson-1.pdf"],
      ["Lesson 2 - Washes", "Lesson 2 - Washes.pdf", "lesson-2.pdf"],
    ] as const) {
      // The button's whole accessible name, as a screen reader says it ("Download palettes.pdf").
      const named = buyer.getByRole("button", { name: `Download ${button}`, exact: true });
      const saved = await download(buyer, named);
      expect(saved.name).toBe(name);
      expect(saved.bytes.equals(pdf(source))).toBe(true);
    }
    await buyer.reload();
    expect(await buyer.getByText("2 of 3 downloads left").count()).toBe(3);

    // The seller adds a fourth file on the edit page.
    await seller.goto(`/dashboard/products/${productId}/edit`);
    await seller.getByRole("heading", { name: "Edit Product" }).waitFor();
    await expect.poll(() => list.getByRole("listitem").count()).toBe(3);
    await checkBothSizes(seller, "edit-page");
    await seller.getByLabel("Digital File *").setInputFiles(asUpload("bonus-brushes.pdf"));
    await seller.getByLabel("Name buyers see for file 4").fill("Bonus brushes");
    await seller.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(seller, PRODUCT_MESSAGES.updatedTitle);

    // The buyer's library (from the receipt) shows the fourth file at once, and it downloads.
    await buyer.goto("/dev/mailbox");
    await buyer.getByRole("link", { name: new RegExp(`Your receipt: ${TITLE}.*${BUYER_EMAIL}`) }).click();
    await buyer.getByRole("link", { name: "Download your 3 files" }).waitFor();
    await buyer.getByRole("link", { name: "All your purchases (your library)" }).click();
    await buyer.waitForURL((url) => url.pathname === "/library" && url.searchParams.has("token"));
    const card = buyer.getByRole("article", { name: TITLE });
    const libraryFiles = card.getByRole("list", { name: `Files of ${TITLE}` });
    // The library is the web app's page: it renders once its data is fetched, which on a loaded CI
    // machine can take longer than expect.poll's default second.
    await libraryFiles.waitFor();
    await expect.poll(() => libraryFiles.getByRole("listitem").count(), { timeout: 15_000 }).toBe(4);
    await card.getByText("Bonus brushes").waitFor();
    await card.getByText("3 of 3 downloads left").waitFor();
    await screenshot(buyer, "files-library-1280");
    // The library's button opens the file in a new tab, where the browser downloads it.
    const inTab = new Promise<Download>((resolve) =>
      buyer.context().once("page", (tab) => void tab.waitForEvent("download").then(resolve)),
    );
    await card.getByRole("button", { name: "Download Bonus brushes" }).click();
    const saved = await inTab;
    expect(saved.suggestedFilename()).toBe("Bonus brushes.pdf");
    expect((await readFile(await saved.path())).equals(pdf("bonus-brushes.pdf"))).toBe(true);
    await card.getByText("2 of 3 downloads left").first().waitFor();
  });
});
