import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { publishProduct, readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

// Checkout recovery in the browser (docs/checkout-recovery.md): a buyer ticks "Keep me updated" on
// Checkout and leaves; an hour later (the app's clock moved) the email is in the dev mailbox; its link
// leads to a fresh checkout; paying counts as Recovered on the seller's analytics page.
let server: E2EServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
});
afterAll(async () => {
  vi.useRealTimers();
  await browser?.close();
  await server?.close();
});

const BUYER = `left-${Date.now()}@example.com`;
const TITLE = "Night Sky Photo Pack";
const SUBJECT = `You left ${TITLE} at checkout`;

async function control(emulatorUrl: string, path: string, body: unknown = {}) {
  const response = await fetch(`${emulatorUrl}/_emulator${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The newest email with this subject, opened from /dev/mailbox as a mail app would show it. */
async function openEmail(page: Page, subject: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    await page.goto("/dev/mailbox");
    const link = page.getByRole("link", { name: new RegExp(`${subject}.*To ${BUYER}`) }).first();
    if ((await link.count()) > 0) {
      await link.click();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no email "${subject}" to ${BUYER}`);
}

describe("checkout recovery", () => {
  it("a buyer who agreed and left gets one email an hour later; its link leads to a fresh checkout that counts as recovered", async () => {
    const sellerContext = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: server.baseUrl,
    });
    const sellerPage = await sellerContext.newPage();
    const seller = await readySeller(sellerPage, server);
    const productId = await publishProduct(sellerPage, { title: TITLE, price: "24.00" });
    // Recovery emails are on by default: the seller's switch in Settings.
    await sellerPage.goto("/settings");
    const recoverySwitch = sellerPage.getByRole("switch", { name: /Email buyers who leave checkout/ });
    await expect.poll(() => recoverySwitch.isChecked(), { timeout: 10_000 }).toBe(true);
    await sellerPage.getByRole("heading", { name: "Checkout recovery" }).scrollIntoViewIfNeeded();
    await sellerPage.screenshot({ path: "screenshots/checkout-recovery-settings-1280.png" });

    // The buyer presses Buy Now, types their email on Checkout, ticks the box, and leaves.
    const buyerContext = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: server.baseUrl,
    });
    const buyer = await buyerContext.newPage();
    await buyer.goto(`/product/${productId}`);
    await buyer.getByRole("button", { name: "Buy Now" }).click();
    await buyer.waitForURL((url) => url.origin === seller.emulatorUrl);
    const sessionId = new URL(buyer.url()).pathname.split("/").pop() ?? "";
    await buyer.getByLabel("Email").fill(BUYER);
    const saved = buyer.waitForResponse((response) => response.url().endsWith(`/c/pay/${sessionId}/consent`));
    await buyer.getByLabel(/Keep me updated with news and offers from/).check();
    expect((await saved).status()).toBe(204);
    await screenshot(buyer, "checkout-recovery-consent-1280");
    await control(seller.emulatorUrl, `/checkout/sessions/${sessionId}/expire`);
    // The app hears of it (the expiry event delivered) before its clock moves on.
    await expect
      .poll(
        async () => {
          const events = (await (await fetch(`${seller.emulatorUrl}/_emulator/events`)).json()) as {
            data: Array<{ status: string }>;
          };
          return events.data.filter((event) => event.status === "pending").length;
        },
        { timeout: 20_000 },
      )
      .toBe(0);

    // An hour later on the app's clock, the job queue (polling every 2 s) sends the email.
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: Date.now() + 61 * 60 * 1000 });
    await openEmail(buyer, SUBJECT);
    await buyer.getByRole("heading", { name: `Still thinking about ${TITLE}?` }).waitFor();
    await buyer.locator("p", { hasText: "It's still available for $24.00." }).waitFor();
    await screenshot(buyer, "checkout-recovery-email-1280");
    await buyer.setViewportSize(PHONE_VIEWPORT);
    await screenshot(buyer, "checkout-recovery-email-375");
    await buyer.setViewportSize({ width: 1280, height: 900 });

    // The email's button: the recovery page, then a fresh checkout of the same product and price.
    await buyer.getByRole("link", { name: "Finish your purchase" }).click();
    await buyer.getByRole("heading", { name: `Still thinking about ${TITLE}?` }).waitFor();
    await screenshot(buyer, "checkout-recovery-page-1280");
    await buyer.getByRole("button", { name: "Continue to checkout" }).click();
    await buyer.waitForURL((url) => url.origin === seller.emulatorUrl);
    const fresh = new URL(buyer.url()).pathname.split("/").pop() ?? "";
    expect(fresh).not.toBe(sessionId);
    await buyer.getByText("$24.00").first().waitFor();
    await buyer.getByLabel("Email").fill(BUYER);
    await buyer.getByLabel("Card number").fill("4242 4242 4242 4242");
    await buyer.getByLabel("Expiration date").fill("12 / 34");
    await buyer.getByLabel("CVC").fill("123");
    // The EU withdrawal waiver, asked before paying for a download.
    await buyer.getByRole("checkbox", { name: /right of withdrawal/ }).check();
    await buyer.getByRole("button", { name: "Pay $24.00" }).click();
    await buyer.waitForURL((url) => url.pathname === "/success");

    // The seller's analytics: the sale counts as Recovered.
    await sellerPage.goto("/dashboard/analytics");
    const recovered = sellerPage.getByRole("group", { name: "Recovered" });
    await expect
      .poll(async () => recovered.locator("p").nth(1).textContent(), { timeout: 20_000 })
      .toContain("$24.00");
    await expect.poll(async () => recovered.textContent()).toContain("1 sale");
    await screenshot(sellerPage, "checkout-recovery-analytics-1280");
    await sellerPage.setViewportSize(PHONE_VIEWPORT);
    await recovered.scrollIntoViewIfNeeded();
    await screenshot(sellerPage, "checkout-recovery-analytics-375");
    await buyerContext.close();
    await sellerContext.close();
  });
});
