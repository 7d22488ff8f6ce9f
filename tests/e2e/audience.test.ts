import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIENCE_MESSAGES } from "../../src/contracts/audience";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT } from "./support/browser";
import { buyProduct, publishProduct, readySeller } from "./support/seller";
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
const TITLE = "Loop Pack";
const FAN = `fan-${Date.now()}@example.com`;
const BUYER_TWO = `buyer-two-${Date.now()}@example.com`;

const newContext = (viewport = DESKTOP): Promise<BrowserContext> =>
  browser.newContext({ viewport, baseURL: server.baseUrl });

/** Full-page screenshots to look at, next to the other helpers' in /tmp. */
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `/tmp/audience-${name}.png`, fullPage: true });

/** A page at both widths: no serious axe finding, nothing wider than the screen, a screenshot of each. */
async function checkLayout(page: Page, name: string) {
  for (const [label, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE_VIEWPORT],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `${name} (${label})`);
    await expectNoSidewaysOverflow(page, `${name} (${label})`);
    await shot(page, `${name}-${label}`);
  }
  await page.setViewportSize(DESKTOP);
}

async function expectToast(page: Page, title: string) {
  await page.locator("[data-sonner-toast]").filter({ hasText: title }).last().waitFor();
}

/** Opens the newest email to `to` whose subject matches, as the buyer's mail app would. */
async function openEmail(page: Page, subject: string, to: string) {
  await page.goto("/dev/mailbox");
  await page
    .getByRole("link", { name: new RegExp(`${subject}.*To ${to}`) })
    .first()
    .click();
  await page.getByRole("heading", { name: subject }).waitFor();
}

/** Follows the email's unsubscribe link, reads the confirmation page, and confirms. */
async function unsubscribeFromEmail(page: Page, sellerName: string, checkPage: boolean) {
  await page.getByRole("link", { name: `Unsubscribe from ${sellerName}'s emails` }).click();
  await page.waitForURL(/\/unsubscribe\//);
  await page.getByRole("heading", { name: `Unsubscribe from ${sellerName}'s emails?` }).waitFor();
  if (checkPage) await checkLayout(page, "unsubscribe");
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await page.getByRole("heading", { name: "You're unsubscribed" }).waitFor();
}

describe("customers and emails to them", () => {
  it("lists buyers, emails a product's buyers, sends a product update, and each unsubscribes from its link", async () => {
    const seller = await (await newContext()).newPage();
    await readySeller(seller, server);
    const productId = await publishProduct(seller, { title: TITLE, price: "9" });
    await buyProduct(server, productId, FAN);
    await buyProduct(server, productId, BUYER_TWO);

    // The customers page lists both buyers (live: the sales arrive by webhook).
    await seller.goto("/dashboard/customers");
    const list = seller.getByRole("region", { name: "Customer list" });
    await list.getByText(FAN).waitFor();
    await list.getByText(BUYER_TWO).waitFor();
    await list.getByText("$9.00").first().waitFor();
    await checkLayout(seller, "customers");
    await seller.getByLabel("Search by email").fill("buyer-two");
    await expect.poll(() => list.getByText(FAN).count()).toBe(0);
    await list.getByText(BUYER_TWO).waitFor();

    // Email the product's buyers: preview first, then send.
    await seller.getByRole("link", { name: "Email customers" }).click();
    await seller.getByRole("heading", { name: AUDIENCE_MESSAGES.emailTitle }).waitFor();
    await seller.getByRole("button", { name: "Preview" }).click();
    await seller.getByText(AUDIENCE_MESSAGES.subjectRequired).waitFor();
    await seller.getByLabel("Buyers of one product").click();
    await seller.getByLabel("Product", { exact: true }).selectOption({ label: TITLE });
    await seller.getByLabel("Subject").fill("A thank-you for you");
    await seller
      .getByLabel("Message")
      .fill("Thanks for buying!\nThe making-of video: https://example.com/video.");
    await seller.getByRole("button", { name: "Preview" }).click();
    await seller.getByText("This email goes to 2 customers.").waitFor();
    const preview = seller.frameLocator('iframe[title="Email preview"]');
    await preview.getByRole("link", { name: "https://example.com/video" }).waitFor();
    await checkLayout(seller, "email-customers");
    await seller.getByRole("button", { name: "Send to 2 customers" }).click();
    await expectToast(seller, AUDIENCE_MESSAGES.sentTitle);
    const sent = seller.getByRole("region", { name: "Sent emails" });
    await sent.getByText("A thank-you for you").waitFor();
    await sent.getByText("2 recipients").waitFor();
    await sent.getByText("Sent", { exact: true }).waitFor();
    await shot(seller, "email-customers-sent");

    // The second buyer reads it in the mailbox (on a phone) and unsubscribes from its link.
    const buyer = await (await newContext(PHONE_VIEWPORT)).newPage();
    await openEmail(buyer, "A thank-you for you", BUYER_TWO);
    await buyer.getByRole("link", { name: "https://example.com/video" }).waitFor();
    await shot(buyer, "email-phone");
    await unsubscribeFromEmail(buyer, "Digital Store", true);
    await checkLayout(buyer, "unsubscribed");

    // A product update from the edit page reaches the one buyer still subscribed.
    await seller.goto(`/dashboard/products/${productId}/edit`);
    const card = seller.getByRole("region", { name: "Tell your buyers what's new" });
    await card.getByRole("button", { name: "Email 1 buyer about this update" }).click();
    await card.getByLabel("What's new").fill("Chapter 4");
    await card.getByLabel("Message").fill("Four new loops are in your library.");
    await checkLayout(seller, "product-update-card");
    await card.getByRole("button", { name: "Send update email" }).click();
    await expectToast(seller, AUDIENCE_MESSAGES.sentTitle);
    await card.getByText(/One update email per product per day/).waitFor();

    await openEmail(buyer, `New in ${TITLE}: Chapter 4`, FAN);
    await buyer.getByRole("link", { name: "Get the new files" }).waitFor();
    await unsubscribeFromEmail(buyer, "Digital Store", false);
    await openEmail(buyer, `New in ${TITLE}: Chapter 4`, FAN);
    // The second buyer, unsubscribed, never got the update.
    await buyer.goto("/dev/mailbox");
    expect(
      await buyer.getByRole("link", { name: new RegExp(`New in ${TITLE}.*To ${BUYER_TWO}`) }).count(),
    ).toBe(0);

    // Both are marked unsubscribed on the customers page.
    await seller.goto("/dashboard/customers");
    await seller.getByRole("region", { name: "Customer list" }).getByText("Unsubscribed").nth(1).waitFor();
  });
});
