import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totp } from "../support/totp";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { fromPage, publishProduct, readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

const run = promisify(execFile);

let server: E2EServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([
    startE2EServer(),
    launchBrowser(),
    mkdir("screenshots", { recursive: true }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const DESKTOP = { width: 1280, height: 900 };

const newContext = (): Promise<BrowserContext> =>
  browser.newContext({ viewport: DESKTOP, baseURL: server.baseUrl });

async function expectToast(page: Page, title: string) {
  await page.locator("[data-sonner-toast]").filter({ hasText: title }).last().waitFor();
}

/** The page at 1280 px and at 375 px (a phone), and back; nothing may scroll sideways on the phone. */
async function screenshotsOf(page: Page, name: string) {
  // From the top: a full-page screenshot of a scrolled page draws the sticky header mid-page.
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  await page.waitForTimeout(100);
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize(PHONE_VIEWPORT);
  await page.waitForTimeout(150);
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(sideways, `${name} scrolls sideways at 375 px`).toBe(false);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize(DESKTOP);
}

/** Signs up through the form and turns two-factor on in Settings → Security, as a person would. */
async function signUpWithTwoFactor(page: Page, email: string, password: string) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL(`${server.baseUrl}/dashboard`);
  await page.goto("/settings");
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await page.getByRole("dialog").getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Continue" }).click();
  const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
  await page.getByLabel("Enter the 6-digit code").fill(totp(secret));
  await page.getByRole("button", { name: "Verify and turn on" }).click();
  await page.getByText("Two-factor on").waitFor();
}

describe("the operator console", () => {
  it("a visitor reports a product; an operator granted from the command line reviews it and takes the product down; the seller appeals; the operator reinstates; the audit log shows it all", async () => {
    // A seller with a store and two products.
    const sellerContext = await newContext();
    const sellerPage = await sellerContext.newPage();
    const seller = await readySeller(sellerPage, server);
    await fromPage(sellerPage, "PUT", "/api/store-settings", { storeName: "Ada's Prints" });
    const productId = await publishProduct(sellerPage, { title: "Watercolour Brushes", price: "12.00" });
    const otherId = await publishProduct(sellerPage, { title: "Sketch Pack", price: "5.00" });

    // The operator's account, with two-factor on; a seller's account can't see the console.
    const operatorContext = await newContext();
    const operatorPage = await operatorContext.newPage();
    const operatorEmail = `operator-${Date.now()}@example.com`;
    await signUpWithTwoFactor(operatorPage, operatorEmail, "correct-horse-42");
    await operatorPage.goto("/operator");
    await operatorPage
      .getByText("Page not found", { exact: false })
      .or(operatorPage.getByText("404"))
      .first()
      .waitFor();

    // Granted from the command line: the embedded database is one process's, so the server stops first.
    const port = Number(new URL(server.baseUrl).port);
    await server.stop();
    const granted = await run("npm", ["run", "--silent", "operator:grant", "--", operatorEmail], {
      env: { ...process.env, DATA_DIR: server.dataDir },
    });
    expect(granted.stdout).toContain(`${operatorEmail} is now an operator.`);
    server = await startE2EServer({}, { dataDir: server.dataDir, port });

    // Overview.
    await operatorPage.goto("/operator");
    await operatorPage.getByRole("heading", { name: "Overview" }).waitFor();
    await operatorPage.getByText("Paying sellers", { exact: true }).waitFor();
    await operatorPage.getByRole("table").waitFor();
    await screenshotsOf(operatorPage, "operator-overview");

    // Sellers: found by the start of their email.
    await operatorPage.goto("/operator/sellers");
    await operatorPage.getByLabel("Email, store name or id").fill(seller.email.slice(0, 14));
    await operatorPage.getByRole("button", { name: "Search" }).click();
    await operatorPage.getByRole("link", { name: /Ada's Prints/ }).click();
    await operatorPage.waitForURL(`${server.baseUrl}/operator/sellers/${seller.userId}`);
    await operatorPage.getByRole("heading", { name: "Ada's Prints" }).waitFor();

    // A visitor reports the product from its page.
    const visitorContext = await newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/product/${productId}`);
    await visitor.getByRole("contentinfo").getByRole("link", { name: "Report" }).click();
    await visitor.getByRole("heading", { name: "Report this product" }).waitFor();
    await visitor.getByLabel("Scam or misleading").check();
    await visitor.getByLabel("Details", { exact: true }).fill("The photos are another shop's brushes.");
    await visitor.getByLabel("Your email").fill(`visitor-${Date.now()}@example.com`);
    await visitor.getByRole("button", { name: "Send report" }).click();
    await visitor.getByRole("heading", { name: "Report sent" }).waitFor();
    await visitorContext.close();

    // The operator reviews it from the queue, and acts from its link: the form comes prefilled.
    await operatorPage.goto("/operator/reports");
    await operatorPage
      .getByRole("region", { name: "Reports" })
      .getByRole("link", { name: "Watercolour Brushes" })
      .click();
    await operatorPage.getByRole("button", { name: "Mark in review" }).click();
    await operatorPage
      .getByRole("list", { name: "Audit log entries" })
      .first()
      .getByText("report.in-review")
      .waitFor();
    const reportId = new URL(operatorPage.url()).pathname.split("/").pop() ?? "";
    await operatorPage.getByRole("link", { name: "Take action on this seller" }).click();
    await operatorPage.getByRole("heading", { name: "Ada's Prints" }).waitFor();
    expect(await operatorPage.getByRole("radio", { name: /Take down a product/ }).isChecked()).toBe(true);
    expect(await operatorPage.getByLabel("Product", { exact: true }).inputValue()).toBe(productId);
    expect(await operatorPage.getByLabel("Report id (optional)").inputValue()).toBe(reportId);
    // No reason: refused in the form.
    await operatorPage.getByRole("button", { name: "Take down a product" }).click();
    await operatorPage.getByText("Say why: every operator action records its reason.").waitFor();
    await operatorPage
      .getByLabel("Reason (the seller reads it)")
      .fill("The brushes' photos belong to another shop.");
    await operatorPage.getByRole("button", { name: "Take down a product" }).click();
    await expectToast(operatorPage, "The seller has been emailed");
    await operatorPage
      .getByRole("list", { name: "Products" })
      .getByRole("listitem")
      .filter({ hasText: "Watercolour Brushes" })
      .getByText("Taken down")
      .waitFor();
    await operatorPage
      .getByRole("list", { name: "Audit log entries" })
      .getByText("product.take-down")
      .waitFor();
    await screenshotsOf(operatorPage, "operator-seller");

    // The public sees that product unavailable; the other one is fine.
    const down = await fetch(`${server.baseUrl}/product/${productId}`);
    expect(down.status).toBe(403);
    expect(await down.text()).toContain("This product is unavailable");
    expect((await fetch(`${server.baseUrl}/product/${otherId}`)).status).toBe(200);

    // The seller sees it on the Standing page, and appeals.
    await sellerPage.goto("/settings");
    await sellerPage.getByRole("link", { name: "See your standing" }).click();
    await sellerPage.waitForURL(`${server.baseUrl}/settings/standing`);
    await sellerPage.getByText("The brushes' photos belong to another shop.").waitFor();
    await sellerPage.getByText(reportId).waitFor();
    await sellerPage.getByRole("button", { name: "Send appeal" }).click();
    await sellerPage.getByText("Tell us why this action should be lifted.").waitFor();
    await sellerPage
      .getByLabel("Appeal", { exact: true })
      .fill("These are my own photos: the other shop copied them from me.");
    await sellerPage.getByRole("button", { name: "Send appeal" }).click();
    await sellerPage.getByText("Your appeal is with an operator.").waitFor();
    await screenshotsOf(sellerPage, "seller-standing");

    // The operator reinstates from the appeals queue.
    await operatorPage.goto("/operator/appeals");
    const appeal = operatorPage.getByRole("list", { name: "Open appeals" }).getByRole("listitem").first();
    await appeal.getByText("These are my own photos").waitFor();
    await screenshotsOf(operatorPage, "operator-appeals");
    await appeal
      .getByLabel("Your answer (the seller reads it)")
      .fill("The seller showed the original files.");
    await appeal.getByRole("button", { name: "Reinstate" }).click();
    await expectToast(operatorPage, "Reinstated");
    await operatorPage.getByText("No open appeals.").waitFor();
    expect((await fetch(`${server.baseUrl}/product/${productId}`)).status).toBe(200);

    // The seller is back in good standing, with the history.
    await sellerPage.reload();
    await sellerPage.getByText("Good standing").waitFor();
    await sellerPage.getByText("Appeal granted", { exact: false }).waitFor();

    // The audit log has all of it, newest first.
    await operatorPage.goto("/operator/audit");
    const entries = operatorPage.getByRole("list", { name: "Audit log entries" });
    await entries.getByText("appeal.reinstate").waitFor();
    const actions = await entries.locator("span.font-mono").allInnerTexts();
    expect(actions.slice(0, 5)).toEqual([
      "appeal.reinstate",
      "appeal.file",
      "product.take-down",
      "report.in-review",
      "operator.grant",
    ]);

    // The seller's emails: taken down, then reinstated.
    const mailbox = await sellerPage.request.get(`${server.baseUrl}/dev/mailbox`);
    if (mailbox.ok()) {
      const text = await mailbox.text();
      expect(text).toContain("A product of yours was taken down");
      expect(text).toContain("Your product is reinstated");
    }
    await sellerContext.close();
    await operatorContext.close();
  }, 300_000);
});
