import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPlanSession,
  createPurchaseSession,
  startTestEmulator,
  type TestEmulator,
} from "../../src/stripe-emulator/test-support";
import { type AccessibilityFinding, accessibilityFindings, describeFindings } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";

// The emulator's hosted pages in Chromium: Checkout, Connect onboarding and the billing portal,
// with success and return URLs pointing at a tiny local "app".

let emulator: TestEmulator;
let stripe: Stripe;
let browser: Browser;
let app: Server;
let appUrl: string;

beforeAll(async () => {
  app = createServer((request, response) => {
    response.setHeader("content-type", "text/html");
    response.end(`<!doctype html><title>App</title><h1>Back in the app</h1><p id="path">${request.url}</p>`);
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  [emulator, browser] = await Promise.all([startTestEmulator(), launchBrowser()]);
  stripe = emulator.stripe;
});
afterAll(async () => {
  await browser?.close();
  await emulator?.close();
  await new Promise((resolve) => app?.close(resolve));
});

async function open(url: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiration date").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
}

describe("hosted Checkout", () => {
  it("pays with 4242 and lands on the success URL with the session id; the event is delivered", async () => {
    const seller = await stripe.accounts.create({
      type: "standard",
      business_profile: { name: "Field Notes Audio" },
    });
    const session = await createPurchaseSession(stripe, seller.id, {
      success_url: `${appUrl}/thanks?session={CHECKOUT_SESSION_ID}`,
      cancel_url: `${appUrl}/product`,
    });
    const page = await open(session.url ?? "");
    await expect(page.getByText("Test mode — local Stripe emulator").isVisible()).resolves.toBe(true);
    await expect(page.getByText("Field recordings").isVisible()).resolves.toBe(true);
    await expect(page.getByTestId("total").textContent()).resolves.toContain("$15.00");
    await expect(page.getByLabel("Email").inputValue()).resolves.toBe("buyer@example.com");
    await fillCard(page, "4242 4242 4242 4242");
    await screenshot(page, "stripe-emulator-checkout-desktop");
    await page.getByRole("button", { name: "Pay $15.00" }).click();
    await page.waitForURL(`${appUrl}/thanks?session=${session.id}`);

    const events = await emulator.connect.waitFor("checkout.session.completed");
    const completed = events.find(
      (event) => (event.data.object as Stripe.Checkout.Session).id === session.id,
    );
    expect(completed?.account).toBe(seller.id);
    expect(completed?.data.object).toMatchObject({
      payment_status: "paid",
      customer_details: { email: "buyer@example.com" },
    });

    const again = await open(session.url ?? "");
    await expect(
      again.getByRole("heading", { name: "This payment is already complete" }).isVisible(),
    ).resolves.toBe(true);
    await page.context().close();
    await again.context().close();
  });

  it("shows a declined card on the page and stays; insufficient funds too", async () => {
    const seller = await stripe.accounts.create({ type: "standard" });
    const session = await createPurchaseSession(stripe, seller.id, { cancel_url: `${appUrl}/product` });
    const page = await open(session.url ?? "", PHONE_VIEWPORT);
    await screenshot(page, "stripe-emulator-checkout-phone");
    await fillCard(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: /Pay/ }).click();
    await expect(page.getByTestId("card-error").textContent()).resolves.toBe("Your card was declined.");
    expect(page.url()).toBe(session.url);
    await screenshot(page, "stripe-emulator-checkout-declined-phone");

    await fillCard(page, "4000 0000 0000 9995");
    await page.getByRole("button", { name: /Pay/ }).click();
    await expect(page.getByTestId("card-error").textContent()).resolves.toBe(
      "Your card has insufficient funds.",
    );
    const retrieved = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: seller.id });
    expect(retrieved.status).toBe("open");

    await page.getByRole("link", { name: /Cancel and go back/ }).click();
    await page.waitForURL(`${appUrl}/product`);
    await page.context().close();
  });

  it("shows a clear page for an expired session", async () => {
    const seller = await stripe.accounts.create({ type: "standard" });
    const session = await createPurchaseSession(stripe, seller.id, { cancel_url: `${appUrl}/product` });
    await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: seller.id });
    const page = await open(session.url ?? "", PHONE_VIEWPORT);
    await expect(
      page.getByRole("heading", { name: "This checkout session has expired" }).isVisible(),
    ).resolves.toBe(true);
    await screenshot(page, "stripe-emulator-checkout-expired-phone");
    await page.context().close();
  });
});

describe("Connect onboarding", () => {
  it("complete onboarding → return_url and account.updated with charges_enabled", async () => {
    const account = await stripe.accounts.create({ type: "standard", email: "maker@example.com" });
    const link = await stripe.accountLinks.create({
      account: account.id,
      type: "account_onboarding",
      refresh_url: `${appUrl}/onboarding/refresh`,
      return_url: `${appUrl}/onboarding/return`,
    });
    const page = await open(link.url, PHONE_VIEWPORT);
    await expect(page.getByText("Test mode — local Stripe emulator").isVisible()).resolves.toBe(true);
    await screenshot(page, "stripe-emulator-onboarding-phone");
    await page.getByRole("button", { name: "Complete onboarding" }).click();
    await page.waitForURL(`${appUrl}/onboarding/return`);

    const events = await emulator.connect.waitFor("account.updated");
    const updated = events.find((event) => event.account === account.id);
    expect(updated?.data.object).toMatchObject({ charges_enabled: true, details_submitted: true });

    await page.goto(link.url);
    await page.waitForURL(`${appUrl}/onboarding/refresh`);
    await page.context().close();
  });
});

describe("billing portal", () => {
  it("subscribe, then cancel at period end → customer.subscription.updated with cancel_at_period_end", async () => {
    const { session, customer } = await createPlanSession(stripe, {
      success_url: `${appUrl}/plan?session={CHECKOUT_SESSION_ID}`,
    });
    const checkout = await open(session.url ?? "", PHONE_VIEWPORT);
    await expect(checkout.getByLabel("Email").inputValue()).resolves.toBe("seller@example.com");
    await fillCard(checkout, "4242 4242 4242 4242");
    await screenshot(checkout, "stripe-emulator-checkout-subscription-phone");
    await checkout.getByRole("button", { name: "Subscribe" }).click();
    await checkout.waitForURL(`${appUrl}/plan?session=${session.id}`);
    await checkout.context().close();
    const subscriptionId = String((await stripe.checkout.sessions.retrieve(session.id)).subscription);
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: `${appUrl}/settings`,
    });

    const page = await open(portal.url);
    await expect(page.getByText("Flatfee plan").isVisible()).resolves.toBe(true);
    await expect(page.getByText("$10.00").first().isVisible()).resolves.toBe(true);
    await expect(page.getByTestId("period-end").isVisible()).resolves.toBe(true);
    await screenshot(page, "stripe-emulator-portal-desktop");
    await page.getByRole("button", { name: "Cancel at period end" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toContain(
      "canceled at the end of the billing period",
    );
    await expect(page.getByRole("button", { name: "Resume subscription" }).isVisible()).resolves.toBe(true);
    await page.setViewportSize(PHONE_VIEWPORT);
    await screenshot(page, "stripe-emulator-portal-phone");

    const updates = await emulator.platform.waitFor("customer.subscription.updated");
    const update = updates.find((event) => (event.data.object as Stripe.Subscription).id === subscriptionId);
    expect(update?.data.object).toMatchObject({ cancel_at_period_end: true });

    await page.getByRole("button", { name: "Resume subscription" }).click();
    await expect(page.getByRole("button", { name: "Cancel at period end" }).isVisible()).resolves.toBe(true);
    await page.getByTestId("return-link").click();
    await page.waitForURL(`${appUrl}/settings`);
    await page.context().close();
  });
});

describe("accessibility of the hosted pages", () => {
  // Everyone who runs Flatfee locally sees these pages: they get the same axe checks as our own, and
  // no finding of any impact is let through.
  it("Checkout, onboarding and the billing portal have no axe findings at 1280 and 375 px", async () => {
    const seller = await stripe.accounts.create({
      type: "standard",
      business_profile: { name: "Quiet Press" },
    });
    const purchase = await createPurchaseSession(stripe, seller.id, {
      success_url: `${appUrl}/thanks`,
      cancel_url: `${appUrl}/product`,
    });
    // An account link can be opened once, as on Stripe: a new one for each viewport.
    const onboardingAccount = await stripe.accounts.create({ type: "standard" });
    const onboardingLink = async () =>
      (
        await stripe.accountLinks.create({
          account: onboardingAccount.id,
          type: "account_onboarding",
          refresh_url: `${appUrl}/refresh`,
          return_url: `${appUrl}/return`,
        })
      ).url;
    const plan = await createPlanSession(stripe, { success_url: `${appUrl}/plan` });
    const planCheckout = await open(plan.session.url ?? "");
    await fillCard(planCheckout, "4242 4242 4242 4242");
    await planCheckout.getByRole("button", { name: "Subscribe" }).click();
    await planCheckout.waitForURL(`${appUrl}/plan`);
    await planCheckout.context().close();
    const customer = plan.customer;
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: appUrl });
    const declined = async (page: Page) => {
      await fillCard(page, "4000 0000 0000 0002");
      await page.getByRole("button", { name: /^Pay/ }).click();
      await page.getByRole("alert").waitFor();
    };
    const pages: Array<[string, () => Promise<string>, ((page: Page) => Promise<void>)?]> = [
      ["checkout", async () => purchase.url ?? ""],
      ["checkout with a declined card", async () => purchase.url ?? "", declined],
      ["onboarding", onboardingLink],
      ["billing portal", async () => portal.url],
    ];
    const findings: AccessibilityFinding[] = [];
    for (const [name, url, act] of pages) {
      for (const viewport of [{ width: 1280, height: 900 }, PHONE_VIEWPORT]) {
        const page = await open(await url(), viewport);
        await act?.(page);
        expect(new URL(page.url()).origin, name).not.toBe(appUrl);
        findings.push(...(await accessibilityFindings(page, `${name} at ${viewport.width} px`)));
        await page.context().close();
      }
    }
    expect(describeFindings(findings)).toBe("");
  });
});
