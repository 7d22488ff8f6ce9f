import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_MESSAGES, quantityBelowTakenMessage } from "../../src/contracts/products";
import { FIELD_REQUIRED } from "../../src/web/features/products/product-form";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { readySeller, tinyPdf } from "./support/seller";
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

async function newContext(viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
  return context;
}

async function expectToast(page: Page, title: string, description?: string) {
  const toasts = page.locator("[data-sonner-toast]");
  const toast = toasts.filter({ hasText: title }).last();
  await toast.waitFor().catch(async (error: Error) => {
    throw new Error(`${error.message}\nToasts on screen: ${JSON.stringify(await toasts.allInnerTexts())}`);
  });
  if (description) await toast.getByText(description, { exact: true }).waitFor();
}

/** The message a field points at with aria-describedby, and that it is marked invalid. */
async function fieldMessage(page: Page, label: string): Promise<string> {
  const field = page.getByLabel(label, { exact: true });
  await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
  const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
  const texts = await Promise.all(
    describedBy
      .split(" ")
      // The error's own element, not the field's hint that it may also point at.
      .filter((id) => id.endsWith("-error"))
      .map(async (id) => (await page.locator(`[id="${id}"]`).textContent()) ?? ""),
  );
  return texts.join(" ");
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(0);
}

const coverPng = (color: string) =>
  sharp({ create: { width: 1200, height: 630, channels: 3, background: color } })
    .png()
    .toBuffer();

/** A buyer's Buy Now (no browser needed): holds one unit for 30 minutes. */
async function holdOneUnit(productId: string) {
  const response = await fetch(`${server.baseUrl}/api/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
    body: JSON.stringify({ productId }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

describe("publishing and editing a product", () => {
  it("publishes with field errors first, shows it live, edits title, price and stock (1280 px)", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await readySeller(page, server);

    // Nothing filled in: the toast says which fields, and each field says so itself.
    await page.goto("/new");
    await page.getByRole("button", { name: "Publish Product" }).click();
    await expectToast(
      page,
      PRODUCT_MESSAGES.missingFieldsTitle,
      `${PRODUCT_MESSAGES.missingFields}: Product Title, Price, Digital File`,
    );
    expect(await fieldMessage(page, "Product Title *")).toBe(FIELD_REQUIRED);
    expect(await fieldMessage(page, "Price (USD) *")).toBe(FIELD_REQUIRED);
    expect(await fieldMessage(page, "Digital File *")).toBe(FIELD_REQUIRED);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-invalid"))).toBe("true");
    await screenshot(page, "product-form-errors");

    // Typing in a field takes its message away.
    await page.getByLabel("Product Title *").fill("Brush Lettering Workbook");
    expect(await page.getByLabel("Product Title *").getAttribute("aria-invalid")).toBeNull();
    await page.getByLabel("Description").fill("Forty drills, from first strokes to full alphabets.");
    await page.getByLabel("Price (USD) *").fill("12");
    await page.getByText("Limited", { exact: true }).click();
    await page.getByLabel("Available Quantity").fill("5");
    await page.getByLabel("Digital File *").setInputFiles({
      name: "workbook.pdf",
      mimeType: "application/pdf",
      buffer: tinyPdf(),
    });
    await page.getByLabel("Cover Image").setInputFiles({
      name: "cover.png",
      mimeType: "image/png",
      buffer: await coverPng("#f97316"),
    });
    await page.getByRole("button", { name: "Publish Product" }).click();

    // It's live: the link with Copy, Open and Share, and a preview of the product.
    await expectToast(page, PRODUCT_MESSAGES.createdTitle, PRODUCT_MESSAGES.created);
    const live = page.getByRole("region", { name: "Your product is live!" });
    await live.waitFor();
    const link = await live.getByLabel("Product link").inputValue();
    expect(link).toMatch(new RegExp(`^${server.baseUrl}/product/[\\w-]+$`));
    const productId = link.split("/").pop()!;
    await live.getByRole("button", { name: "Copy" }).click();
    await expectToast(page, PRODUCT_MESSAGES.linkCopied);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    const open = live.getByRole("link", { name: "Open (new tab)" });
    expect(await open.getAttribute("href")).toBe(link);
    expect(await open.getAttribute("target")).toBe("_blank");
    const shareButton = live.getByRole("button", { name: "Share" });
    if ((await shareButton.count()) === 0) {
      expect(await live.getByRole("link", { name: "Email" }).getAttribute("href")).toContain(
        encodeURIComponent(link),
      );
      expect(await live.getByRole("link", { name: "Post on X (new tab)" }).getAttribute("href")).toContain(
        encodeURIComponent(link),
      );
    }
    await live.getByRole("heading", { name: "Brush Lettering Workbook" }).waitFor();
    await live.getByText("$12.00").waitFor();
    const preview = live.getByRole("img", { name: "Cover of Brush Lettering Workbook" });
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await screenshot(page, "product-live-panel");

    // Edit: the form starts from the product.
    await live.getByRole("link", { name: "Edit product" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard/products/${productId}/edit`);
    await page.getByRole("heading", { name: "Edit Product" }).waitFor();
    expect(await page.getByLabel("Product Title *").inputValue()).toBe("Brush Lettering Workbook");
    expect(await page.getByLabel("Price (USD) *").inputValue()).toBe("12.00");
    expect(await page.getByLabel("Total Quantity").inputValue()).toBe("5");
    await page
      .getByRole("list", { name: "Product files" })
      .getByText("workbook.pdf", { exact: true })
      .waitFor();
    await page.getByRole("img", { name: "Cover of Brush Lettering Workbook" }).waitFor();

    // A buyer holds a unit: the total can't go below it, said next to the field.
    await holdOneUnit(productId);
    await page.reload();
    await page.getByText("Counts every unit: 0 sold, 1 in an open checkout, 4 left to sell.").waitFor();
    await page.getByLabel("Total Quantity").fill("0");
    await page.getByRole("button", { name: "Save Changes" }).click();
    const tooLow = quantityBelowTakenMessage(0, 1);
    await expectToast(page, PRODUCT_MESSAGES.updateFailedTitle, tooLow);
    expect(await fieldMessage(page, "Total Quantity")).toContain(tooLow);
    await screenshot(page, "product-edit-stock-refused");

    // Title, price and stock change; the public page shows them at once.
    await page.getByLabel("Product Title *").fill("Brush Lettering Workbook, Second Edition");
    await page.getByLabel("Price (USD) *").fill("14.50");
    await page.getByLabel("Total Quantity").fill("3");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, PRODUCT_MESSAGES.updatedTitle, PRODUCT_MESSAGES.updated);
    const saved = page.getByRole("region", { name: "Your changes are live!" });
    await saved.getByRole("heading", { name: "Brush Lettering Workbook, Second Edition" }).waitFor();
    await saved.getByText("$14.50").waitFor();

    await page.goto(link);
    await page.getByRole("heading", { level: 1, name: "Brush Lettering Workbook, Second Edition" }).waitFor();
    await page.getByText("$14.50").first().waitFor();
    await page.getByText("Only 2 left in stock").waitFor();
    expect(await page.getByText("$12.00").count()).toBe(0);
    await context.close();
  });

  it("works on a phone: a field error on /new, the live panel and the edit page (375 px)", async () => {
    const context = await newContext(PHONE_VIEWPORT);
    const page = await context.newPage();
    await readySeller(page, server);

    await page.goto("/new");
    await page.getByLabel("Price (USD) *").fill("9");
    await page.getByLabel("Digital File *").setInputFiles({
      name: "a-rather-long-file-name-for-a-small-phone-screen.pdf",
      mimeType: "application/pdf",
      buffer: tinyPdf(),
    });
    await page.getByRole("button", { name: "Publish Product" }).click();
    await expectToast(
      page,
      PRODUCT_MESSAGES.missingFieldsTitle,
      `${PRODUCT_MESSAGES.missingFields}: Product Title`,
    );
    expect(await fieldMessage(page, "Product Title *")).toBe(FIELD_REQUIRED);
    expect(await page.getByLabel("Price (USD) *").getAttribute("aria-invalid")).toBeNull();
    await expectNoSidewaysScroll(page);
    await screenshot(page, "product-form-errors-phone");

    await page.getByLabel("Product Title *").fill("Pocket Planner Printable With A Long Name For Phones");
    await page.getByRole("button", { name: "Publish Product" }).click();
    const live = page.getByRole("region", { name: "Your product is live!" });
    await live.waitFor();
    await live.getByRole("button", { name: "Copy" }).waitFor();
    await expectNoSidewaysScroll(page);
    const copy = await live.getByRole("button", { name: "Copy" }).boundingBox();
    expect(copy!.x + copy!.width).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    await screenshot(page, "product-live-panel-phone");

    await live.getByRole("link", { name: "Edit product" }).click();
    await page.getByRole("heading", { name: "Edit Product" }).waitFor();
    await page.getByLabel("Product Title *").fill("");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(
      page,
      PRODUCT_MESSAGES.missingFieldsTitle,
      `${PRODUCT_MESSAGES.missingFields}: Product Title`,
    );
    expect(await fieldMessage(page, "Product Title *")).toBe(FIELD_REQUIRED);
    await expectNoSidewaysScroll(page);
    await screenshot(page, "product-edit-phone");

    // Another seller's product, or none: not found, with the way back.
    await page.goto("/dashboard/products/no-such-product/edit");
    await page.getByRole("heading", { name: "Product not found" }).waitFor();
    await page.getByRole("link", { name: "Back to Dashboard" }).waitFor();
    await context.close();
  });
});
