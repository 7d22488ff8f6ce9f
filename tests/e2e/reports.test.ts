import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORT_MESSAGES } from "../../src/contracts/reports";
import { type RunningServer, startServer } from "../../src/server/boot";
import { loadConfig } from "../../src/server/config";
import { createFreshDatabase } from "../api/support/test-database";
import { testDatabaseTemplate } from "../support/database-template";
import { totp } from "../support/totp";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { fromPage, publishProduct, readySeller } from "./support/seller";
import { E2E_WEB_DIST, type E2EServer, freePort } from "./support/server";

const run = promisify(execFile);

/**
 * This journey's server, in a DATA_DIR it keeps across a restart: operators are granted only from the
 * command line (npm run operator:grant), which with the embedded database needs the server stopped.
 */
let dataDir: string;
let port: number;
let emulatorPort: number;
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let server: RunningServer | undefined;
let baseUrl: string;
let browser: Browser;

async function start() {
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: baseUrl,
    STRIPE_EMULATOR_PORT: String(emulatorPort),
    LOG_LEVEL: "warn",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const template = testDatabaseTemplate();
  server = await startServer(config, {
    logger: false,
    webDistDir: E2E_WEB_DIST,
    ...(template ? { pgliteTemplate: template } : {}),
  });
}

/** Stops the server, grants the operator role from the command line, starts the server again. */
async function grantFromCommandLine(email: string) {
  await server?.close();
  server = undefined;
  const { stdout } = await run(
    "npx",
    ["tsx", "src/server/features/operator/operator-cli.ts", "grant", email],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
    },
  );
  expect(stdout).toContain(`${email} is now an operator.`);
  await start();
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "flatfee-e2e-reports-"));
  port = await freePort();
  emulatorPort = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  if (process.env.TEST_DATABASE_URL) {
    const database = await createFreshDatabase(process.env.TEST_DATABASE_URL);
    databaseUrl = database.url;
    dropDatabase = () => database.drop();
  }
  await start();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await dropDatabase?.();
  await rm(dataDir, { recursive: true, force: true });
});

async function newContext(
  viewport: { width: number; height: number },
  options: { javaScriptEnabled?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl, ...options });
  context.setDefaultTimeout(20_000);
  return context;
}

const DESKTOP = { width: 1280, height: 900 };

async function fillCopyrightReport(page: Page, email: string) {
  await page.getByLabel("Copyright", { exact: true }).check();
  await page
    .getByLabel("The copyrighted work")
    .fill("My illustrated guide “Field Notes”, first published at https://ada.example/field-notes");
  await page.getByLabel("Your full legal name", { exact: true }).fill("Ada Author");
  await page
    .getByLabel("Your postal address and phone number")
    .fill("1 Main Street, Springfield\n+1 555 0100");
  await page.getByLabel(/I have a good faith belief/).check();
  await page.getByLabel(/under penalty of perjury/).check();
  await page.getByLabel("Electronic signature").fill("Ada Author");
  await page.getByLabel("Your email").fill(email);
}

describe("reports and takedowns", () => {
  it("a visitor reports a product (with and without script), the operator reviews it, the seller answers with a counter-notice", async () => {
    // The operator: an account with two-factor on, granted from the command line.
    const operatorContext = await newContext(DESKTOP);
    const operatorPage = await operatorContext.newPage();
    const operatorEmail = `operator-${Date.now()}@example.com`;
    const password = "correct-horse-42";
    await operatorPage.goto("/auth");
    await operatorPage.getByLabel("Email").fill(operatorEmail);
    await operatorPage.getByLabel("Password", { exact: true }).fill(password);
    await operatorPage.getByRole("button", { name: "Create Account" }).click();
    await operatorPage.waitForURL(`${baseUrl}/dashboard`);
    const { totpURI } = (await fromPage(operatorPage, "POST", "/api/auth/two-factor/enable", {
      password,
    })) as {
      totpURI: string;
    };
    const secret = new URL(totpURI).searchParams.get("secret") ?? "";
    await fromPage(operatorPage, "POST", "/api/auth/two-factor/verify-totp", { code: totp(secret) });
    // Before anything else: the restart starts a fresh Stripe emulator too.
    await grantFromCommandLine(operatorEmail);

    // The seller, with a product.
    const sellerContext = await newContext(DESKTOP);
    const sellerPage = await sellerContext.newPage();
    const seller = await readySeller(sellerPage, { baseUrl } as E2EServer);
    const productId = await publishProduct(sellerPage, {
      title: "Field Notes Illustrated",
      price: "12",
      description: "Every plant of the valley, drawn by hand.",
    });

    // A visitor without JavaScript: the product page's Report link, the form, its server-side checks.
    const noScript = await newContext(DESKTOP, { javaScriptEnabled: false });
    const visitor = await noScript.newPage();
    await visitor.goto(`/product/${productId}`);
    const reportLink = visitor.getByRole("contentinfo").getByRole("link", { name: "Report" });
    await reportLink.scrollIntoViewIfNeeded();
    await screenshot(visitor, "reports-product-page-link-1280");
    await reportLink.click();
    await visitor.waitForURL(`${baseUrl}/product/${productId}/report`);
    await visitor.getByRole("heading", { name: "Report this product" }).waitFor();
    // The copyright notice's fields show once Copyright is chosen (CSS, no script).
    expect(await visitor.getByLabel("The copyrighted work").isVisible()).toBe(false);
    await screenshot(visitor, "reports-form-1280");
    await visitor.getByLabel("Copyright", { exact: true }).check();
    expect(await visitor.getByLabel("The copyrighted work").isVisible()).toBe(true);
    expect(await visitor.getByLabel("Where the infringing material is").inputValue()).toBe(
      `${baseUrl}/product/${productId}`,
    );
    await visitor.getByRole("button", { name: "Send report" }).click();
    await visitor.getByText(REPORT_MESSAGES.workRequired).waitFor();
    await visitor.getByText(REPORT_MESSAGES.emailInvalid).waitFor();
    await screenshot(visitor, "reports-form-errors-1280");

    const claimant = `claimant-${Date.now()}@example.com`;
    await fillCopyrightReport(visitor, claimant);
    await visitor.getByRole("button", { name: "Send report" }).click();
    await visitor.getByRole("heading", { name: "Report sent" }).waitFor();
    await visitor.getByText(REPORT_MESSAGES.received).waitFor();
    await screenshot(visitor, "reports-confirmation-1280");
    // Sent again while it is open: nothing added.
    await visitor.goto(`/product/${productId}/report`);
    await fillCopyrightReport(visitor, claimant);
    await visitor.getByRole("button", { name: "Send report" }).click();
    await visitor.getByText(REPORT_MESSAGES.alreadyReviewed).waitFor();
    await noScript.close();

    // axe needs script: the same form, its problems shown, checked in a browser with it.
    const checked = await newContext(DESKTOP);
    const checkedPage = await checked.newPage();
    await checkedPage.goto(`/product/${productId}/report`);
    await expectAccessible(checkedPage, "report form");
    await checkedPage.getByLabel("Copyright", { exact: true }).check();
    await checkedPage.getByRole("button", { name: "Send report" }).click();
    await checkedPage.getByText(REPORT_MESSAGES.workRequired).waitFor();
    await expectAccessible(checkedPage, "report form with its problems");
    await checked.close();

    // A visitor on a phone, with script, in French, reports the store.
    const phone = await newContext(PHONE_VIEWPORT);
    const phoneVisitor = await phone.newPage();
    await phoneVisitor.goto(`/product/${productId}`);
    await phoneVisitor
      .getByRole("contentinfo")
      .getByRole("link", { name: "Report" })
      .scrollIntoViewIfNeeded();
    await screenshot(phoneVisitor, "reports-product-page-link-375");
    await phoneVisitor.goto(`/product/${productId}/report?lang=fr`);
    await phoneVisitor.getByRole("heading", { name: "Signaler ce produit" }).waitFor();
    await expectAccessible(phoneVisitor, "report form (phone, French)");
    await expectNoSidewaysOverflow(phoneVisitor, "report form (phone)");
    await phoneVisitor.getByLabel("Droit d’auteur").check();
    await screenshot(phoneVisitor, "reports-form-copyright-375");
    await phoneVisitor.goto(`/store/${seller.userId}?lang=en`);
    await phoneVisitor.getByRole("contentinfo").getByRole("link", { name: "Report" }).click();
    await phoneVisitor.getByRole("heading", { name: "Report this store" }).waitFor();
    await screenshot(phoneVisitor, "reports-store-form-375");
    await phoneVisitor.getByLabel("Scam or misleading").check();
    await phoneVisitor
      .getByLabel("Details", { exact: true })
      .fill("The store takes payment and never sends anything.");
    await phoneVisitor.getByLabel("Your email").fill(`buyer-${Date.now()}@example.com`);
    await phoneVisitor.getByRole("button", { name: "Send report" }).click();
    await phoneVisitor.getByRole("heading", { name: "Report sent" }).waitFor();
    await expectNoSidewaysOverflow(phoneVisitor, "report confirmation (phone)");
    await screenshot(phoneVisitor, "reports-confirmation-375");
    await phone.close();

    // The operator's queue: the report, newest first; opened, taken into review.
    await operatorPage.goto("/operator/reports");
    const queue = operatorPage.getByRole("region", { name: "Reports" });
    await queue.getByRole("link", { name: "Field Notes Illustrated" }).waitFor();
    await queue.getByRole("link", { name: /Store:/ }).waitFor();
    await expectAccessible(operatorPage, "operator reports queue");
    await screenshot(operatorPage, "reports-operator-queue-1280");
    await operatorPage.getByRole("button", { name: /^New/ }).click();
    await queue.getByRole("link", { name: "Field Notes Illustrated" }).click();
    await operatorPage.getByRole("heading", { name: "Copyright: Field Notes Illustrated" }).waitFor();
    await operatorPage.getByText("1 Main Street, Springfield").waitFor();
    await operatorPage.getByText("guide.pdf").first().waitFor();
    await operatorPage.getByRole("button", { name: "Mark in review" }).click();
    await operatorPage
      .getByRole("list", { name: "Audit log entries" })
      .first()
      .getByText("report.in-review")
      .waitFor();
    const takeAction = operatorPage.getByRole("link", { name: "Take action on this seller" });
    expect(await takeAction.getAttribute("href")).toMatch(
      new RegExp(`^/operator/sellers/${seller.userId}\\?report=[\\w-]+&product=${productId}$`),
    );
    await expectAccessible(operatorPage, "operator report page");
    await operatorPage.evaluate(() => window.scrollTo(0, 0));
    await screenshot(operatorPage, "reports-operator-report-1280");
    // The operator takes the product down on the notice (enforcement's route, the report recorded with it).
    const reportId = new URL(`${baseUrl}${await takeAction.getAttribute("href")}`).searchParams.get("report");
    await fromPage(operatorPage, "POST", `/api/operator/products/${productId}/take-down`, {
      reason: "Copyright notice received",
      reportId,
    });

    // The seller sees it under Reports, with the claimant's name and email, and sends a counter-notice.
    await sellerPage.goto("/dashboard");
    await sellerPage
      .getByRole("navigation", { name: "Seller" })
      .getByRole("link", { name: "Reports" })
      .click();
    await sellerPage.getByRole("heading", { name: "Reports about your store" }).waitFor();
    await expectAccessible(sellerPage, "seller reports");
    await screenshot(sellerPage, "reports-seller-list-1280");
    await sellerPage.getByRole("link", { name: "Copyright: Field Notes Illustrated" }).click();
    await sellerPage.getByText(`Ada Author (${claimant})`).waitFor();
    expect(await sellerPage.getByText("1 Main Street").count()).toBe(0);
    await sellerPage
      .getByLabel("Your answer")
      .fill("I drew every plate myself in 2021; the sketches are dated.");
    await sellerPage.getByLabel("Send this as a counter-notice (DMCA)").check();
    await sellerPage.getByRole("button", { name: "Send counter-notice" }).click();
    await sellerPage.getByText("A counter-notice needs this statement.").first().waitFor();
    await sellerPage.getByLabel("Your full legal name", { exact: true }).fill("Sam Seller");
    await sellerPage.getByLabel("Your postal address").fill("2 High Street, Shelbyville");
    await sellerPage.getByLabel("Your phone number").fill("+1 555 0199");
    await sellerPage.getByLabel(/mistake or misidentification/).check();
    await sellerPage.getByLabel(/consent to the jurisdiction/).check();
    await sellerPage.getByLabel(/Electronic signature/).fill("Sam Seller");
    await sellerPage.evaluate(() => window.scrollTo(0, 0));
    await screenshot(sellerPage, "reports-seller-counter-notice-1280");
    await expectAccessible(sellerPage, "seller counter-notice form");
    await sellerPage.getByRole("button", { name: "Send counter-notice" }).click();
    await sellerPage.getByRole("heading", { name: "Your counter-notice" }).waitFor();
    await sellerPage.evaluate(() => window.scrollTo(0, 0));
    await screenshot(sellerPage, "reports-seller-report-1280");
    await sellerPage.setViewportSize(PHONE_VIEWPORT);
    await sellerPage.goto("/dashboard/reports");
    await sellerPage.getByRole("heading", { name: "Reports about your store" }).waitFor();
    await expectNoSidewaysOverflow(sellerPage, "seller reports (phone)");
    await screenshot(sellerPage, "reports-seller-list-375");

    // The operator sees the answer, on the report and in the queue, and when the product may be restored:
    // the counter-notice was forwarded to the claimant (by email) as it arrived.
    await operatorPage.reload();
    await operatorPage.getByRole("heading", { name: "Seller's counter-notice" }).waitFor();
    await operatorPage.getByText("I drew every plate myself in 2021").waitFor();
    const timer = operatorPage.getByText(/^Counter-notice forwarded .+; the product may be restored from /);
    await timer.waitFor();
    await timer.scrollIntoViewIfNeeded();
    await screenshot(operatorPage, "reports-operator-counter-notice-1280");
    await operatorPage
      .getByRole("list", { name: "Audit log entries" })
      .first()
      .getByText("report.counter-notice")
      .waitFor();
    await operatorPage.setViewportSize(PHONE_VIEWPORT);
    await operatorPage.reload();
    await operatorPage.getByRole("heading", { name: "Seller's counter-notice" }).waitFor();
    await expectNoSidewaysOverflow(operatorPage, "operator report (phone)");
    await screenshot(operatorPage, "reports-operator-report-375");
    await timer.scrollIntoViewIfNeeded();
    await screenshot(operatorPage, "reports-operator-counter-notice-375");
    await operatorPage.goto("/operator/reports");
    await operatorPage.getByText("Seller answered").first().waitFor();
    await expectNoSidewaysOverflow(operatorPage, "operator queue (phone)");
    await screenshot(operatorPage, "reports-operator-queue-375");

    // The seller may not open the console: the ordinary 404 page.
    await sellerPage.goto("/operator/reports");
    await sellerPage.getByRole("heading", { name: /not found/i }).waitFor();

    await sellerContext.close();
    await operatorContext.close();
  }, 480_000);
});
