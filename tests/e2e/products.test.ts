import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_MESSAGES } from "../../src/contracts/products";
import { STORE_SETTINGS_MESSAGES } from "../../src/contracts/store-settings";
import { BYTES_PER_MB, UPLOAD_MESSAGES } from "../../src/contracts/uploads";
import { totp } from "../support/totp";
import { followLink, launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

let server: E2EServer;
let browser: Browser;
let scratch: string;
beforeAll(async () => {
  [server, browser, scratch] = await Promise.all([
    startE2EServer(),
    launchBrowser(),
    mkdtemp(path.join(tmpdir(), "flatfee-products-e2e-")),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function newContext(
  viewport = { width: 1280, height: 900 },
  options: { javaScriptEnabled?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl, ...options });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
  return context;
}

const readClipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** A small valid PDF (with correct xref offsets), padded so that its upload takes a moment. */
function pdfFile(paddingBytes: number): Buffer {
  const padding = "%".concat("x".repeat(paddingBytes), "\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
  ];
  let body = `%PDF-1.4\n${padding}`;
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

const pngImage = (width: number, height: number, color: string) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

async function expectToast(page: Page, title: string, description?: string) {
  const toasts = page.locator("[data-sonner-toast]");
  const toast = toasts.filter({ hasText: title }).last();
  await toast.waitFor().catch(async (error: Error) => {
    throw new Error(`${error.message}\nToasts on screen: ${JSON.stringify(await toasts.allInnerTexts())}`);
  });
  if (description) await toast.getByText(description, { exact: true }).waitFor();
  return toast;
}

/** Logout from the seller frame, then sign in again through the Login tab. */
async function signIn(page: Page, email: string, password: string) {
  await page.getByRole("button", { name: "Logout" }).click();
  await page.waitForURL(`${server.baseUrl}/`);
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Login" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${page.url()} scrolls sideways on a phone`).toBeLessThanOrEqual(0);
}

/** Samples the upload bar while it is on screen: every percentage it showed. */
async function watchProgress(page: Page): Promise<number[]> {
  const bar = page.getByRole("progressbar", { name: /^Uploading / }).first();
  await bar.waitFor();
  const seen: number[] = [];
  while (await bar.isVisible()) {
    // A short timeout: the bar may be gone between the two calls.
    const value = await bar.getAttribute("aria-valuenow", { timeout: 100 }).catch(() => null);
    if (value !== null) seen.push(Number(value));
    await page.waitForTimeout(50);
  }
  return seen;
}

describe("products, storefront and store settings", () => {
  it("a seller publishes a product with a PDF and a cover, shares it, sees it everywhere, styles the store, deletes it", async () => {
    const context = await newContext();
    const page = await context.newPage();
    const seller = await readySeller(page, server);
    const title = `Watercolor Guide ${Date.now()}`;

    await page.getByRole("link", { name: "New Product" }).first().click();
    await page.waitForURL(`${server.baseUrl}/new`);
    await page.getByLabel("Product Title").fill(title);
    await page.getByLabel("Description").fill("Thirty lessons.\nFrom first wash to finished piece.");
    await page.getByLabel("Price (USD)").fill("19.99");
    await page.getByText("Limited", { exact: true }).click();
    await page.getByLabel("Available Quantity").fill("3");
    await page.getByLabel("Digital File").setInputFiles({
      name: "watercolor-guide.pdf",
      mimeType: "application/pdf",
      buffer: pdfFile(3 * BYTES_PER_MB),
    });
    await page.getByText("watercolor-guide.pdf", { exact: true }).waitFor();
    await page.getByLabel("Cover Image").setInputFiles({
      name: "cover.png",
      mimeType: "image/png",
      buffer: await pngImage(1200, 630, "#6d5dfc"),
    });
    await page.getByRole("img", { name: "Cover preview" }).waitFor();

    // Slow the upload down so the bar is seen moving (bytes sent / total).
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 2 * BYTES_PER_MB,
    });
    await page.getByRole("button", { name: "Publish Product" }).click();
    await page.getByRole("button", { name: "Uploading..." }).waitFor();
    const seen = await watchProgress(page);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    expect(
      seen.some((percent) => percent > 0 && percent < 100),
      `progress seen: ${seen}`,
    ).toBe(true);

    const created = await expectToast(page, PRODUCT_MESSAGES.createdTitle, PRODUCT_MESSAGES.created);
    // After Publish the product's link shows (product-editing.test.ts); on to the dashboard.
    await followLink(page, page.getByRole("link", { name: "Go to Dashboard" }), "/dashboard");
    await created.getByRole("button", { name: "Copy Link" }).click();
    await expectToast(page, PRODUCT_MESSAGES.linkCopied);
    const productLink = await readClipboard(page);
    expect(productLink).toMatch(new RegExp(`^${server.baseUrl}/product/[\\w-]+$`));
    const productPath = new URL(productLink).pathname;

    // Dashboard: the row and the stat cards.
    const recent = page.getByRole("region", { name: "Recent Products" });
    await recent.getByText(title).waitFor();
    await recent.getByText("$19.99").waitFor();
    await recent.getByText("3 in stock").waitFor();
    const active = page.getByRole("group", { name: "Active Products" });
    await active.getByText("of 1 total").waitFor();
    expect(await active.textContent()).toContain("1");
    await expect
      .poll(() => page.getByRole("group", { name: "Storage Used" }).textContent())
      .toMatch(/[1-9][\d.]* MB/);
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await recent.getByRole("button", { name: `Copy link to ${title}` }).click();
    await expectToast(page, PRODUCT_MESSAGES.linkCopied);
    expect(await readClipboard(page)).toBe(productLink);
    await screenshot(page, "dashboard-with-product");

    // The public product page.
    await recent.getByRole("link", { name: `View ${title}` }).click();
    await page.waitForURL(productLink);
    await page.getByRole("heading", { name: title }).waitFor();
    await page.getByText("$19.99").waitFor();
    await page.getByText("Only 3 left in stock").waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered line break is what is checked
    expect(await page.getByText("Thirty lessons.").innerText()).toBe(
      "Thirty lessons.\nFrom first wash to finished piece.",
    );
    const cover = page.getByRole("img", { name: `Cover of ${title}` });
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // The store's name is in the creator's header too: this is the 'Sold by' block's.
    await page.getByRole("link", { name: /^Sold by\s*Digital Store$/ }).waitFor();
    await page.getByText("link expires in 24 hours").waitFor();
    expect(await page.getByRole("button", { name: "Buy Now" }).isEnabled()).toBe(true);

    // The storefront.
    await page.goto(`/store/${seller.userId}`);
    await page.getByRole("heading", { name: "Digital Store" }).waitFor();
    const card = page.getByRole("listitem").filter({ hasText: title });
    await card.getByText("$19.99").waitFor();
    await card.getByText("3 left").waitFor();
    await card.getByRole("link", { name: `View Details of ${title}` }).click();
    await page.waitForURL(productLink);

    // With JavaScript off (after the storefront's stock checks: this buyer holds a unit) (blocked scripts, in-app browsers): the page is whole and Buy Now still pays.
    const noScript = await newContext(PHONE_VIEWPORT, { javaScriptEnabled: false });
    const buyer = await noScript.newPage();
    await buyer.goto(productLink);
    await buyer.getByRole("heading", { name: title }).waitFor();
    await buyer.getByText("$19.99").waitFor();
    await buyer.getByText("Thirty lessons.").waitFor();
    const noScriptCover = buyer.getByRole("img", { name: `Cover of ${title}` });
    await expect
      .poll(() => noScriptCover.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    await screenshot(buyer, "product-page-no-js-phone");
    await buyer.getByRole("button", { name: "Buy Now" }).click();
    await buyer.getByLabel("Card number").waitFor();
    expect(new URL(buyer.url()).origin).not.toBe(server.baseUrl);
    await noScript.close();

    // Store settings: a picture too big is refused at once; a good one shows on the storefront.
    await page.goto("/settings");
    const pictureInput = page.getByLabel("Profile Picture or Logo");
    await pictureInput.setInputFiles({
      name: "huge.png",
      mimeType: "image/png",
      buffer: Buffer.alloc(5 * BYTES_PER_MB),
    });
    await expectToast(
      page,
      STORE_SETTINGS_MESSAGES.fileTooLargeTitle,
      UPLOAD_MESSAGES.profilePictureTooLarge,
    );
    await pictureInput.setInputFiles({
      name: "logo.png",
      mimeType: "image/png",
      buffer: await pngImage(400, 400, "#f59e0b"),
    });
    await page.getByLabel("Store Name").fill("Ada's Watercolors");
    await page.getByLabel("Tagline").fill("Paint with light");
    await page.getByLabel("Description").fill("Lessons and brushes.\nMade in Lisbon.");
    await page.getByText("17/100").waitFor();
    await page.getByRole("button", { name: "Save" }).click();
    await expectToast(page, STORE_SETTINGS_MESSAGES.updatedTitle);
    await page.waitForURL(`${server.baseUrl}/dashboard`);

    await page.goto(`/store/${seller.userId}`);
    await page.getByRole("heading", { name: "Ada's Watercolors" }).waitFor();
    await page.getByText("Paint with light").waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered line break is what is checked
    expect(await page.getByText("Lessons and brushes.").innerText()).toBe(
      "Lessons and brushes.\nMade in Lisbon.",
    );
    const avatar = page.locator("header img").first();
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    // Phone-sized screenshots of the public pages.
    const phone = await newContext(PHONE_VIEWPORT);
    const phonePage = await phone.newPage();
    for (const [pagePath, name] of [
      [productPath, "product-page-phone"],
      [`/store/${seller.userId}`, "storefront-phone"],
    ] as const) {
      await phonePage.goto(pagePath);
      await phonePage.getByRole("heading", { level: 1 }).waitFor();
      await phonePage.waitForLoadState("networkidle");
      const overflow = await phonePage.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, `${pagePath} scrolls sideways on a phone`).toBeLessThanOrEqual(0);
      await screenshot(phonePage, name);
    }
    await phonePage.goto(productPath);
    await phonePage.getByRole("link", { name: /^Sold by\s*Ada's Watercolors$/ }).waitFor();
    await phone.close();

    // Delete: the exact confirmation, then gone from the dashboard and from the public page.
    await page.goto("/dashboard");
    await recent.getByRole("button", { name: `Delete ${title}` }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByRole("heading", { name: PRODUCT_MESSAGES.deleteConfirmTitle }).waitFor();
    await dialog.getByText(PRODUCT_MESSAGES.deleteConfirm, { exact: true }).waitFor();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expectToast(page, PRODUCT_MESSAGES.deletedTitle, PRODUCT_MESSAGES.deleted);
    await recent.getByText("No products yet").waitFor();
    expect(await recent.getByText(title).count()).toBe(0);
    // A deleted product's link answers a real 404 page with a way home.
    const gone = await page.goto(productPath);
    expect(gone?.status()).toBe(404);
    await page.getByRole("heading", { level: 1, name: "Product not found" }).waitFor();
    await context.close();
  });

  it("refuses a 300 MB file before any upload, asks for missing fields, shows a sold-out product (on a phone)", async () => {
    const context = await newContext(PHONE_VIEWPORT);
    const page = await context.newPage();
    await readySeller(page, server);
    const uploads: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/uploads") || request.url().includes("/files/upload")) {
        uploads.push(request.url());
      }
    });
    await page.goto("/new");
    await page.getByRole("button", { name: "Publish Product" }).click();
    await expectToast(
      page,
      PRODUCT_MESSAGES.missingFieldsTitle,
      `${PRODUCT_MESSAGES.missingFields}: Product Title, Price, Digital File`,
    );

    // A sparse file: 300 MB on paper, nothing on disk.
    const bigFile = path.join(scratch, "huge-course.pdf");
    await writeFile(bigFile, "");
    await truncate(bigFile, 300 * BYTES_PER_MB);
    await page.getByLabel("Digital File").setInputFiles(bigFile);
    const message = UPLOAD_MESSAGES.productFileTooLarge(300 * BYTES_PER_MB);
    expect(message).toBe("File size exceeds 250MB limit. Your file is 300.00MB");
    await expectToast(page, "File too large", message);
    expect(await page.getByText("huge-course.pdf", { exact: true }).count()).toBe(0);

    await page.getByLabel("Product Title").fill("Huge course");
    await page.getByLabel("Price (USD)").fill("5");
    await page.getByRole("button", { name: "Publish Product" }).click();
    await expectToast(
      page,
      PRODUCT_MESSAGES.missingFieldsTitle,
      `${PRODUCT_MESSAGES.missingFields}: Digital File`,
    );
    expect(uploads).toEqual([]);
    await expectNoSidewaysScroll(page);
    await screenshot(page, "new-product-phone");

    // A limited product with none left is public but sold out.
    await page.getByLabel("Digital File").setInputFiles({
      name: "last-copy.pdf",
      mimeType: "application/pdf",
      buffer: pdfFile(1024),
    });
    await page.getByText("Limited", { exact: true }).click();
    await page.getByLabel("Available Quantity").fill("0");
    await page.getByRole("button", { name: "Publish Product" }).click();
    await expectToast(page, PRODUCT_MESSAGES.createdTitle);
    await followLink(page, page.getByRole("link", { name: "Go to Dashboard" }), "/dashboard");
    const recent = page.getByRole("region", { name: "Recent Products" });
    await recent.getByText("Sold out").waitFor();
    await expectNoSidewaysScroll(page);
    await screenshot(page, "dashboard-products-phone");
    await recent.getByRole("link", { name: "View Huge course" }).click();
    await page.getByText("SOLD OUT", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Sold Out" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Buy Now" }).count()).toBe(0);
    await screenshot(page, "product-sold-out-phone");
    await page.getByRole("link", { name: /Sold by/ }).click();
    await page.getByRole("listitem").filter({ hasText: "Huge course" }).getByText("SOLD OUT").waitFor();
    await context.close();
  });

  it("cancelling during the upload leaves no file behind", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await readySeller(page, server);
    const usedBytes = () =>
      page.evaluate(
        async () => ((await (await fetch("/api/uploads/usage")).json()) as { usedBytes: number }).usedBytes,
      );

    await page.goto("/new");
    await page.getByLabel("Product Title").fill("Never published");
    await page.getByLabel("Price (USD)").fill("9");
    await page.getByLabel("Digital File").setInputFiles({
      name: "draft.pdf",
      mimeType: "application/pdf",
      buffer: pdfFile(4 * BYTES_PER_MB),
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: BYTES_PER_MB,
    });
    await page.getByRole("button", { name: "Publish Product" }).click();
    const bar = page.getByRole("progressbar", { name: "Uploading draft.pdf" });
    await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow"))).toBeGreaterThan(0);
    expect(await usedBytes()).toBeGreaterThan(0);

    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await expect.poll(usedBytes).toBe(0);
    await page.getByRole("region", { name: "Recent Products" }).getByText("No products yet").waitFor();
    await context.close();
  });

  it("two-factor: turn on with a code from the secret, sign in with a code and a backup code, turn off (on a phone)", async () => {
    const context = await newContext(PHONE_VIEWPORT);
    const page = await context.newPage();
    const email = `two-factor-${Date.now()}@example.com`;
    const password = "correct-horse-42";
    await page.goto("/auth");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);

    await page.goto("/settings");
    await page.getByRole("button", { name: "Turn on two-factor" }).click();
    await page.getByRole("dialog").getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("img", { name: /QR code/ }).waitFor();
    const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
    expect(secret.replace(/\s/g, "")).toMatch(/^[A-Z2-7]{16,}$/);
    expect(
      await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").count(),
    ).toBeGreaterThan(0);
    await expectNoSidewaysScroll(page);
    await screenshot(page, "settings-two-factor-enrol-phone");
    await page.getByLabel("Enter the 6-digit code").fill(totp(secret));
    await page.getByRole("button", { name: "Verify and turn on" }).click();
    await expectToast(page, "Two-factor authentication is on");
    await page.getByText("Two-factor on").waitFor();

    await signIn(page, email, password);
    await page.getByLabel("Authentication code").fill(totp(secret));
    await screenshot(page, "sign-in-two-factor-phone");
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);

    // New backup codes; one of them signs in instead of the app.
    await page.goto("/settings");
    await page.getByRole("button", { name: "New backup codes" }).click();
    await page.getByRole("dialog").getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Generate new codes" }).click();
    const backupCode =
      (await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").first().textContent()) ??
      "";
    expect(backupCode).not.toBe("");
    await signIn(page, email, password);
    await page.getByRole("button", { name: "Use a backup code instead" }).click();
    await page.getByLabel("Backup code").fill(backupCode);
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);

    // Turned off, sign-in no longer asks for a code.
    await page.goto("/settings");
    await page.getByRole("button", { name: "Turn off two-factor" }).click();
    await page.getByRole("dialog").getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Turn off", exact: true }).click();
    await expectToast(page, "Two-factor authentication is off");
    await page.getByText("Two-factor off").waitFor();
    await signIn(page, email, password);
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await context.close();
  });
});
