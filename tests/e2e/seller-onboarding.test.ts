import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BILLING_MESSAGES } from "../../src/contracts/seller";
import { loadConfig } from "../../src/server/config";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
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

const DESKTOP_VIEWPORT = { width: 1280, height: 900 };
const PAYING_CARD = "4242 4242 4242 4242";
const DECLINED_CARD = "4000 0000 0000 0002";

let counter = 0;
const newEmail = () => `seller-${Date.now()}-${++counter}@example.com`;

async function newSellerPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP_VIEWPORT, baseURL: server.baseUrl });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
  return context.newPage();
}

async function signUp(page: Page): Promise<void> {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(newEmail());
  await page.getByLabel("Password", { exact: true }).fill("correct-horse-42");
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL(`${server.baseUrl}/dashboard`);
}

/** On the emulator's hosted Checkout page: card details, then Subscribe. */
async function payOnCheckout(page: Page, card: string): Promise<void> {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiration date").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Subscribe", exact: true }).click();
}

async function startCheckout(page: Page): Promise<void> {
  await page.getByRole("heading", { name: "Subscription Required" }).waitFor();
  await page.getByRole("button", { name: "Subscribe Now" }).click();
  await page.getByRole("button", { name: "Subscribe", exact: true }).waitFor();
  expect(new URL(page.url()).origin).not.toBe(server.baseUrl);
}

async function connectStripe(page: Page): Promise<void> {
  await page.getByRole("heading", { name: "Connect Your Stripe Account" }).waitFor();
  await page.getByRole("button", { name: "Connect Stripe" }).click();
  await page.getByRole("button", { name: "Complete onboarding" }).click();
  await page.waitForURL((url) => url.origin === server.baseUrl && url.pathname === "/dashboard");
}

/** A signed-up seller with an active plan and finished onboarding, on the dashboard. */
async function onboardedSeller(): Promise<{ page: Page; emulatorOrigin: string }> {
  const page = await newSellerPage();
  await signUp(page);
  await startCheckout(page);
  const emulatorOrigin = new URL(page.url()).origin;
  await payOnCheckout(page, PAYING_CARD);
  await connectStripe(page);
  await subscriptionCard(page).waitFor();
  return { page, emulatorOrigin };
}

async function emulatorControl(emulatorOrigin: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${emulatorOrigin}/_emulator${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok, `${path} answered ${response.status}`).toBe(true);
  return response.json();
}

/** The newest plan subscription in the emulator (tests in this file run one after another). */
async function latestSubscriptionId(emulatorOrigin: string): Promise<string> {
  const events = (await emulatorControl(emulatorOrigin, "/events?type=customer.subscription.created")) as {
    data: { event: { data: { object: { id: string } } } }[];
  };
  const id = events.data.at(-1)?.event.data.object.id;
  if (!id) throw new Error("no subscription in the emulator");
  return id;
}

/**
 * Points the emulator's platform webhooks at our server, or at a closed port. While unreachable the
 * emulator retries plan events (after 0.5, 1, 2, 4, 8 s) as Stripe would: that holds the seller in
 * the post-checkout polling state. The secrets are the server's own, kept in its DATA_DIR.
 */
async function setPlatformWebhooks(emulatorOrigin: string, reachable: boolean): Promise<void> {
  const { payments } = loadConfig({ DATA_DIR: server.dataDir });
  const platformUrl = reachable
    ? `${server.url}/api/webhooks/stripe`
    : "http://127.0.0.1:9/api/webhooks/stripe";
  await emulatorControl(emulatorOrigin, "/webhooks", {
    platform: { url: platformUrl, secret: payments.webhookSecret },
    connect: { url: `${server.url}/api/webhooks/stripe-connect`, secret: payments.connectWebhookSecret },
  });
}

const subscriptionCard = (page: Page) => page.getByRole("region", { name: "Subscription" });

/** Desktop and 375px screenshots of the current screen; the phone one must not scroll sideways. */
async function screenshotBoth(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE_VIEWPORT);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} scrolls sideways on a phone`).toBeLessThanOrEqual(0);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP_VIEWPORT);
}

describe("seller onboarding", () => {
  it("sign up → subscribe with 4242 → connect Stripe → dashboard with the plan active", async () => {
    const page = await newSellerPage();
    await signUp(page);
    await page.getByRole("heading", { name: "Subscription Required" }).waitFor();
    await screenshotBoth(page, "seller-subscribe");

    await startCheckout(page);
    const emulatorOrigin = new URL(page.url()).origin;
    await setPlatformWebhooks(emulatorOrigin, false);
    await payOnCheckout(page, PAYING_CARD);
    await page.waitForURL(`${server.baseUrl}/dashboard?subscription=success`);
    await page.getByText(BILLING_MESSAGES.paymentSuccessful).waitFor();
    await screenshot(page, "seller-payment-received-desktop");
    await setPlatformWebhooks(emulatorOrigin, true);

    await page.getByRole("heading", { name: "Connect Your Stripe Account" }).waitFor();
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await screenshotBoth(page, "seller-connect");

    await page.getByRole("button", { name: "Connect Stripe" }).click();
    await page.getByRole("button", { name: "Complete onboarding" }).click();
    await page.waitForURL((url) => url.origin === server.baseUrl && url.pathname === "/dashboard");
    await page.getByText(BILLING_MESSAGES.stripeConnectedTitle).waitFor();
    await page.getByText(BILLING_MESSAGES.stripeConnected).waitFor();
    await page.waitForURL(`${server.baseUrl}/dashboard`);

    const card = subscriptionCard(page);
    await card.getByText("$10/month Unlimited").waitFor();
    await expect(card.getByTestId("subscription-status").textContent()).resolves.toBe("Active");
    await card.getByText(/^Renews on /).waitFor();
    for (const title of ["Active Products", "Store Views", "Units Sold", "Total Revenue", "Storage Used"]) {
      await page.getByText(title, { exact: true }).waitFor();
    }

    await page.getByRole("button", { name: "Share My Store" }).click();
    await page.getByText("Store link copied!").waitFor();
    const userId = await page.evaluate(() => navigator.clipboard.readText().then((t) => t.split("/").pop()));
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(
      `${server.baseUrl}/store/${userId}`,
    );
    await expect(page.getByRole("link", { name: "View My Store" }).getAttribute("href")).resolves.toBe(
      `/store/${userId}`,
    );
    await screenshotBoth(page, "seller-dashboard");

    // The same gates guard /new.
    await page.getByRole("link", { name: "New Product" }).first().click();
    await page.waitForURL(`${server.baseUrl}/new`);
    await page.getByRole("heading", { name: "New Product" }).waitFor();
    await page.context().close();
  });

  it("Manage Billing → cancel at period end: the dashboard shows 'Cancels on', live in another tab", async () => {
    const { page } = await onboardedSeller();
    const watcher = await page.context().newPage();
    await watcher.goto("/dashboard");
    await subscriptionCard(watcher)
      .getByText(/^Renews on /)
      .waitFor();
    await watcher.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    await subscriptionCard(page).getByRole("button", { name: "Manage Billing" }).click();
    await page.getByRole("button", { name: "Cancel at period end" }).click();
    await page.getByText("Your plan will be canceled at the end of the billing period.").waitFor();

    // Through /api/events, without a reload.
    await subscriptionCard(watcher)
      .getByText(/^Cancels on /)
      .waitFor();
    await expect(watcher.evaluate(() => "notReloaded" in window)).resolves.toBe(true);

    await page.getByTestId("return-link").click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await subscriptionCard(page)
      .getByText(/^Cancels on /)
      .waitFor();
    await page.context().close();
  });

  it("a failed renewal shows the grace banner live; after cancellation the store is paused, not deleted", async () => {
    const { page, emulatorOrigin } = await onboardedSeller();
    const subscriptionId = await latestSubscriptionId(emulatorOrigin);

    await emulatorControl(emulatorOrigin, `/subscriptions/${subscriptionId}/renew`, { outcome: "failed" });
    const banner = page.getByRole("alert").filter({ hasText: "Your last payment failed" });
    await banner.waitFor();
    await banner.getByText(/Update your card by /).waitFor();
    await banner.getByRole("button", { name: "Manage Billing" }).waitFor();
    await expect(subscriptionCard(page).getByTestId("subscription-status").textContent()).resolves.toBe(
      "Past due",
    );
    await subscriptionCard(page)
      .getByText(/^Payment failed on /)
      .waitFor();
    await screenshotBoth(page, "seller-dashboard-grace");

    await banner.getByRole("button", { name: "Manage Billing" }).click();
    await page.getByRole("button", { name: "Cancel now" }).click();
    await page.getByText("Your plan has been canceled.").waitFor();
    await page.getByTestId("return-link").click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await page.getByRole("heading", { name: "Subscription Required" }).waitFor();
    await page.getByText("Nothing has been deleted.").waitFor();
    await page.getByRole("button", { name: "Subscribe Now" }).waitFor();
    await page.getByRole("button", { name: "Manage Billing" }).waitFor();
    await screenshotBoth(page, "seller-subscribe-canceled");
    await page.context().close();
  });

  it("a declined card shows the decline on Checkout and leaves the seller on Subscription Required", async () => {
    const page = await newSellerPage();
    await signUp(page);
    await startCheckout(page);
    await payOnCheckout(page, DECLINED_CARD);
    await page.getByRole("alert").getByText("Your card was declined.").waitFor();

    await page.getByRole("link", { name: "Cancel and go back" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await page.getByRole("heading", { name: "Subscription Required" }).waitFor();
    await page.getByRole("button", { name: "Subscribe Now" }).waitFor();
    await page.context().close();
  });

  it("onboarding left incomplete: polling gives up with 'Taking longer than expected', then 'continue where you left off'", async () => {
    const page = await newSellerPage();
    // The page's clock runs on its own, and the test moves it a second at a time below instead of waiting.
    await page.clock.install();
    await signUp(page);
    await startCheckout(page);
    await payOnCheckout(page, PAYING_CARD);
    await page.getByRole("heading", { name: "Connect Your Stripe Account" }).waitFor();
    await page.getByRole("button", { name: "Connect Stripe" }).click();
    await page.getByRole("button", { name: "Leave incomplete" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard?stripe_connect=success`);

    // 30 polls, one a second: each jump fires the next poll's timer, and each poll is a real request.
    const slow = page.getByText(BILLING_MESSAGES.connectSlowTitle);
    let seconds = 0;
    while (!(await slow.isVisible())) {
      expect(seconds, "polling gives up after 30 seconds").toBeLessThan(40);
      await page.clock.fastForward(1000);
      seconds += 1;
      await page.waitForTimeout(50);
    }
    expect(seconds).toBeGreaterThanOrEqual(29);
    await page.getByText(BILLING_MESSAGES.connectSlow).waitFor();
    await page.getByRole("heading", { name: "Connect Your Stripe Account" }).waitFor();
    await page.getByText("Continue where you left off").waitFor();
    await page.context().close();
  }, 60_000);

  it("after a password reset the seller lands on the Login tab", async () => {
    const page = await newSellerPage();
    const email = newEmail();
    await page.goto("/auth");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct-horse-42");
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await page.context().clearCookies();

    await page.goto("/auth?tab=login");
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await page.getByRole("dialog").getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await page.getByText("Check your email").waitFor();
    await page.goto("/dev/mailbox");
    await page.getByText(`To ${email}`).click();
    await page.getByRole("link", { name: "Choose a new password" }).click();
    await page.getByLabel("New Password").fill("brand-new-secret-7");
    await page.getByLabel("Confirm Password").fill("brand-new-secret-7");
    await page.getByRole("button", { name: "Update Password" }).click();
    await page.getByText("Password updated!").waitFor();
    await page.waitForURL(`${server.baseUrl}/auth?tab=login`);
    await expect(page.getByRole("tab", { name: "Login" }).getAttribute("aria-selected")).resolves.toBe(
      "true",
    );
    await page.context().close();
  });
});
