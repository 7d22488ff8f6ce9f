import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MEMBERSHIP_CHANGE_MESSAGES } from "../../src/contracts/memberships";
import { POST_MESSAGES } from "../../src/contracts/posts";
import { PRODUCT_MESSAGES } from "../../src/contracts/products";
import { launchBrowser } from "./support/browser";
import { expectToast, openEmail } from "./support/memberships";
import { type ReadySeller, readySeller, tinyPdf } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

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

const DESKTOP = { width: 1280, height: 900 };
const DAY = 24 * 60 * 60;
const CLUB = "The Journey Club";
const MEMBER = `journey-${Date.now()}@example.com`;
const POST_TITLE = "Welcome to the studio";

const newContext = (): Promise<BrowserContext> =>
  browser.newContext({ viewport: DESKTOP, baseURL: server.baseUrl });

/** Full-page screenshots of the journey's key steps, to look at. */
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `/tmp/journey-${name}.png`, fullPage: true });

/** The tier editor's card for the tier at `index` (0-based). */
const tierCard = (page: Page, index: number) =>
  page.getByRole("list", { name: "Tiers" }).locator(":scope > li").nth(index);

/** A call to the emulator's control API. */
async function emulator(seller: ReadySeller, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${seller.emulatorUrl}/_emulator${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`emulator ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Moves the emulator's clock (renewals, trial ends, retries and period-end cancellations then run). */
const advanceClock = (seller: ReadySeller, seconds: number) =>
  emulator(seller, "POST", "/clock/advance", { seconds });

/** Reloads the library until the membership's card shows `text` (webhooks land asynchronously). */
async function reloadUntil(page: Page, card: Locator, text: string | RegExp) {
  for (let attempt = 0; attempt < 60; attempt++) {
    await page.reload();
    await page.getByRole("heading", { name: "Memberships" }).waitFor();
    if ((await card.getByText(text, { exact: true }).count()) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the library never showed "${text}": ${await card.textContent()}`);
}

/** The analytics page's Memberships card `name`, reloaded until its figure is `value`. */
async function analyticsCardUntil(page: Page, name: string, value: string) {
  const memberships = page.getByRole("region", { name: "Memberships" });
  await expect
    .poll(
      async () => {
        await page.goto("/dashboard/analytics");
        await memberships.waitFor();
        return memberships.getByRole("group", { name }).locator("p").nth(1).textContent();
      },
      { timeout: 20_000 },
    )
    .toBe(value);
  return memberships;
}

describe("a membership from the creator's first tier to the member's last day", () => {
  it("create, post, subscribe with a trial, upgrade, first payment, failed renewal paid on the invoice page, cancel, end; the creator's figures follow", async () => {
    // 1. The creator: a two-tier membership through the New Product form, then a post to both tiers.
    const sellerContext = await newContext();
    const seller = await sellerContext.newPage();
    const ready = await readySeller(seller, server);

    await seller.goto("/new");
    await seller.getByText("Membership", { exact: true }).click();
    await seller.getByRole("region", { name: "Membership tiers *" }).waitFor();
    await seller.getByLabel("Product Title *").fill(CLUB);
    await seller.getByLabel("Description", { exact: true }).fill("Lessons and studio notes every month.");
    await seller
      .getByLabel("Digital File *")
      .setInputFiles([{ name: "lessons.pdf", mimeType: "application/pdf", buffer: tinyPdf() }]);
    const fan = tierCard(seller, 0);
    await fan.getByLabel("Tier name *").fill("Fan");
    await fan.getByLabel("Monthly price (USD) *").fill("5");
    await fan.getByLabel("Free trial (days)").fill("7");
    await fan.getByLabel("lessons.pdf").check();
    await seller.getByRole("button", { name: "Add tier" }).click();
    const patron = tierCard(seller, 1);
    await patron.getByLabel("Tier name *").fill("Patron");
    await patron.getByLabel("Monthly price (USD) *").fill("15");
    await patron.getByLabel("Yearly price (optional)").fill("150");
    await patron.getByLabel("lessons.pdf").check();
    await shot(seller, "1-new-membership");
    await seller.getByRole("button", { name: "Publish Product" }).click();
    await expectToast(seller, PRODUCT_MESSAGES.createdTitle);
    const live = seller.getByRole("region", { name: "Your product is live!" });
    await live.getByText("From $5.00/month").waitFor();
    const productUrl = await live.getByLabel("Product link").inputValue();

    await seller.goto("/dashboard/posts");
    await seller.getByRole("button", { name: "New post" }).click();
    await seller.getByLabel("Title").fill(POST_TITLE);
    await seller
      .getByLabel("Post", { exact: true })
      .fill("Hello **members**, the first lesson is in your library.");
    await seller.getByRole("checkbox", { name: "Fan" }).check();
    await seller.getByRole("checkbox", { name: "Patron" }).check();
    await seller.getByRole("button", { name: "Publish" }).click();
    await expectToast(seller, POST_MESSAGES.published);
    await seller.getByText(POST_TITLE).waitFor();
    await shot(seller, "1-post");

    // 2. The buyer subscribes monthly to Fan on the product page and pays on Checkout with 4242.
    const buyerContext = await newContext();
    const buyer = await buyerContext.newPage();
    await buyer.goto(productUrl);
    const fanForm = buyer.getByRole("form", { name: "Fan" });
    await fanForm.getByText("7-day free trial").waitFor();
    expect(await fanForm.getByRole("radio", { name: /Yearly/ }).count()).toBe(0);
    await shot(buyer, "2-product-page");
    await fanForm.getByRole("button", { name: "Subscribe to Fan" }).click();
    await buyer.getByLabel("Card number").waitFor();
    expect(new URL(buyer.url()).origin).toBe(ready.emulatorUrl);
    await buyer.getByText("7 days free").waitFor();
    await buyer.getByLabel("Email").fill(MEMBER);
    await buyer.getByLabel("Card number").fill("4242 4242 4242 4242");
    await buyer.getByLabel("Expiration date").fill("12 / 34");
    await buyer.getByLabel("CVC").fill("123");
    // The EU withdrawal waiver, asked on a membership's Checkout as on a download's.
    await buyer.getByRole("checkbox", { name: /right of withdrawal/ }).check();
    await shot(buyer, "2-checkout");
    await buyer.getByRole("button", { name: "Subscribe" }).click();
    await buyer.waitForURL((url) => url.pathname === "/success" && url.searchParams.has("session_id"));
    await buyer.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor({ timeout: 20_000 });
    await buyer.getByText(CLUB, { exact: true }).waitFor();
    await shot(buyer, "2-success");

    // The welcome email opens the library: the trial, the tier's file and the creator's post.
    await openEmail(buyer, `Welcome to ${CLUB}`, MEMBER);
    await buyer.getByText("Your free trial runs until").waitFor();
    const libraryUrl = (await buyer.locator('a[href*="/library?token="]').first().getAttribute("href"))!;
    await buyer.goto(libraryUrl);
    await buyer.getByRole("heading", { name: "Memberships" }).waitFor();
    const card = buyer.getByRole("article", { name: CLUB });
    await card.getByText("Trial", { exact: true }).waitFor();
    await card.getByText("$5.00 / month").waitFor();
    await card.getByText(/^Trial until /).waitFor();
    const post = card.getByRole("article", { name: POST_TITLE });
    await post.locator("strong", { hasText: "members" }).waitFor();
    await card.getByRole("button", { name: "Download lessons.pdf" }).waitFor();
    await shot(buyer, "2-library-trial");

    // The membership's Stripe subscription, for the emulator's control API.
    const created = (await emulator(ready, "GET", "/events?type=customer.subscription.created")) as {
      data: Array<{ event: { account?: string; data: { object: { id: string } } } }>;
    };
    const subscriptionId = created.data.find((record) => record.event.account)!.event.data.object.id;

    // 3. Upgrade to Patron during the trial: Stripe prorates nothing, so nothing is due now.
    await card.getByRole("button", { name: "Switch tier" }).click();
    const dialog = buyer.getByRole("dialog", { name: "Switch tier" });
    await dialog.getByText("Your tier").waitFor();
    await dialog.getByText("Patron", { exact: true }).click();
    expect(await dialog.getByRole("radio", { name: /^Patron/ }).isChecked()).toBe(true);
    await dialog.getByRole("button", { name: "Preview" }).click();
    const summary = dialog.getByTestId("change-preview");
    await summary.getByText("Nothing to pay now.", { exact: true }).waitFor();
    await summary.getByText("Then $15.00 per month.").waitFor();
    expect(await summary.getByRole("listitem").count()).toBe(0);
    await shot(buyer, "3-switch-preview");
    await dialog.getByRole("button", { name: "Confirm switch" }).click();
    await expectToast(buyer, MEMBERSHIP_CHANGE_MESSAGES.changed);
    await dialog.waitFor({ state: "hidden" });
    await card.getByText("$15.00 / month").waitFor();
    await card.getByText("Patron").waitFor();
    await card.getByText("Trial", { exact: true }).waitFor();
    await post.waitFor();
    await shot(buyer, "3-library-patron");

    // 4. Past the trial: the first payment ($15, Patron) succeeds; Active, and a receipt.
    await advanceClock(ready, 8 * DAY);
    await reloadUntil(buyer, card, "Active");
    await card.getByText(/^Renews on /).waitFor();
    await card.getByText("$15.00 / month").waitFor();
    await openEmail(buyer, `Your receipt: ${CLUB}`, MEMBER);
    await buyer.getByText("Amount paid: $15.00").waitFor();
    await shot(buyer, "4-receipt");
    await buyer.goto(libraryUrl);
    await card.getByText("Active", { exact: true }).waitFor();
    await shot(buyer, "4-library-active");

    // While active, the creator's MRR counts the Patron's $15.
    const memberships = await analyticsCardUntil(seller, "MRR", "$15.00");
    expect(
      await memberships.getByRole("group", { name: "Paying members" }).locator("p").nth(1).textContent(),
    ).toBe("1");
    await shot(seller, "4-analytics-active");

    // 5. The next renewal fails: Past due, the "Payment failed" email, its button opens the invoice page.
    await emulator(ready, "POST", `/subscriptions/${subscriptionId}/next_renewal`, { outcome: "failed" });
    await advanceClock(ready, 32 * DAY);
    await buyer.goto(libraryUrl);
    await reloadUntil(buyer, card, "Past due");
    await shot(buyer, "5-library-past-due");
    await openEmail(buyer, `Payment failed: ${CLUB}`, MEMBER);
    await shot(buyer, "5-payment-failed-email");
    const payUrl = (await buyer
      .getByRole("link", { name: "Update your card and pay" })
      .getAttribute("href"))!;
    expect(payUrl).toMatch(new RegExp(`^${ready.emulatorUrl}/invoice/in_`));
    await buyer.getByRole("link", { name: "Update your card and pay" }).click();
    await buyer.waitForURL(payUrl);
    await buyer.getByTestId("status").getByText("Due").waitFor();
    await buyer.getByLabel("Card number").fill("4242 4242 4242 4242");
    await buyer.getByLabel("Expiration date").fill("12 / 34");
    await buyer.getByLabel("CVC").fill("123");
    await buyer.getByRole("button", { name: "Pay $15.00" }).click();
    await buyer.getByTestId("status").getByText("Paid").waitFor();
    await shot(buyer, "5-invoice-paid");
    await buyer.goto(libraryUrl);
    await reloadUntil(buyer, card, "Active");
    await card.getByRole("button", { name: "Download lessons.pdf" }).waitFor();
    await post.waitFor();
    await shot(buyer, "5-library-active-again");

    // 6. Cancel at period end in Stripe's billing portal: access until the period's end, then Ended.
    await card.getByRole("button", { name: "Manage membership" }).click();
    await buyer.waitForURL((url) => url.href.startsWith(`${ready.emulatorUrl}/p/session/`));
    await buyer.getByRole("button", { name: "Cancel at period end" }).click();
    await buyer.getByText("Your plan will be canceled at the end of the billing period.").waitFor();
    await shot(buyer, "6-portal-canceled");
    await buyer.getByTestId("return-link").click();
    await buyer.waitForURL((url) => url.href.startsWith(`${server.baseUrl}/library`));
    await reloadUntil(buyer, card, "Canceled at period end");
    await card.getByText(/^Access until \w{3} \d{1,2}, \d{4}$/).waitFor();
    await card.getByRole("button", { name: "Download lessons.pdf" }).waitFor();
    await shot(buyer, "6-library-canceling");

    await advanceClock(ready, 32 * DAY);
    await reloadUntil(buyer, card, "Ended");
    await card.getByText(/^Ended on /).waitFor();
    expect(await card.getByRole("button", { name: /^Download/ }).count()).toBe(0);
    expect(await card.getByRole("button", { name: "Manage membership" }).count()).toBe(1);
    expect(await card.getByRole("button", { name: "Switch tier" }).count()).toBe(0);
    await openEmail(buyer, `Membership ended: ${CLUB}`, MEMBER);
    await buyer.goto(libraryUrl);
    await card.getByText("Ended", { exact: true }).waitFor();
    await shot(buyer, "6-library-ended");

    // 7. The creator: the member Ended on the members page, MRR back to nothing, Churned 1.
    await seller.goto("/dashboard/members");
    await seller.getByRole("heading", { name: "Members", level: 1 }).waitFor();
    const row = seller.locator("tbody tr").filter({ hasText: MEMBER });
    await row.getByText("Ended", { exact: true }).waitFor();
    await shot(seller, "7-members");
    await analyticsCardUntil(seller, "MRR", "$0.00");

    // Churned counts memberships that ended by the end of the app's today; Stripe's (the emulator's)
    // clock ran two months ahead, so the app's clock is set to Stripe's for this last look, as the two
    // agree in production. The 30-day session from two months back has expired: the creator signs in.
    const { now } = (await emulator(ready, "GET", "/clock")) as { now: number };
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: now * 1000 });
    try {
      await seller.goto("/dashboard/analytics");
      const login = seller.getByRole("tab", { name: "Login" });
      const memberships = seller.getByRole("region", { name: "Memberships" });
      await login.or(memberships).first().waitFor();
      if (await login.isVisible()) {
        await login.click();
        await seller.getByLabel("Email").fill(ready.email);
        await seller.getByLabel("Password", { exact: true }).fill(ready.password);
        await seller.getByRole("button", { name: "Sign In" }).click();
        await seller.waitForURL((url) => url.pathname.startsWith("/dashboard"));
      }
      const after = await analyticsCardUntil(seller, "Churned", "1");
      expect(await after.getByRole("group", { name: "MRR" }).locator("p").nth(1).textContent()).toBe("$0.00");
      await shot(seller, "7-analytics-churned");
    } finally {
      vi.useRealTimers();
    }
    await buyerContext.close();
    await sellerContext.close();
  }, 240_000);
});
