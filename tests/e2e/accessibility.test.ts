import { writeFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_LIMITS } from "../../src/contracts/products";
import { STORE_TEXT_LIMITS } from "../../src/contracts/store-settings";
import { ERROR_LOG_KEY, type ErrorLogEntry } from "../../src/web/lib/error-log";
import {
  type AccessibilityFinding,
  type AccessibilityOptions,
  accessibilityFindings,
  describeOverflow,
  failOnSeriousFindings,
  type SidewaysOverflow,
  sidewaysOverflow,
} from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { buyProduct, fromPage, readySeller, tinyPdf } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

/**
 * Every page at desktop and phone size, filled with the longest data the limits allow, checked with axe
 * (fails on serious or critical findings) and for sideways overflow. A page is checked in each state a
 * person meets it in: dialogs open, toasts shown, errors next to fields. Findings of every impact are
 * written to screenshots/accessibility-findings.json, beside the screenshots.
 */

/** Each test checks a dozen pages twice; axe takes a few seconds a page on a busy machine. */
const PAGE_GROUP_TIMEOUT = 300_000;

const SIZES = [
  { label: "1280", viewport: { width: 1280, height: 800 } },
  { label: "375", viewport: PHONE_VIEWPORT },
] as const;

/** `text` repeated to exactly `length` characters (without spaces in `text`: the worst case for wrapping). */
const unbroken = (text: string, length: number) =>
  text.repeat(Math.ceil(length / text.length)).slice(0, length);
/** A 60-character address. */
const longEmail = (local: string) => `${local.slice(0, 60 - "@example.com".length)}@example.com`;

const SELLER_EMAIL = longEmail("alexandra.featherstonehaugh-montgomery.lettering-studio");
const BUYER_EMAIL = longEmail("maximilian.cholmondeley-worthington.illustration-fan");
const REFUNDED_BUYER_EMAIL = longEmail("refunded.buyer-with-a-very-long-address-for-checks");
const STORE_NAME = unbroken("Featherstonehaugh&Montgomery-Cholmondeley ", STORE_TEXT_LIMITS.storeName);
const STORE_TAGLINE = unbroken(
  "Hand-lettered typefaces, brushes and print-ready templates. ",
  STORE_TEXT_LIMITS.storeTagline,
).trim();
const STORE_DESCRIPTION =
  `${unbroken("Independent illustration studio. ", 880)}https://example.com/${unbroken("portfolio-", 200)}`.slice(
    0,
    STORE_TEXT_LIMITS.storeDescription,
  );
/** 100 characters with only two spaces. */
const LONG_TITLE = `The_Complete_Watercolour_and_Gouache_Masterclass ${unbroken("Supercalifragilistic", 35)} Edition_2026_v2`;
const LONG_DESCRIPTION = `${"Forty-two video lessons, printable worksheets and brush presets. ".repeat(20)}Download: https://example.com/${unbroken("very-long-path-segment-", 120)}`;
/** The highest price the limits allow: $999,999.99. */
const TOP_PRICE = (PRODUCT_LIMITS.maxPriceCents / 100).toFixed(2);

let server: E2EServer;
let browser: Browser;
let sellerContext: BrowserContext;
let visitorContext: BrowserContext;
/** The signed-in seller's page and a signed-out visitor's (the buyer's) page. */
let seller: Page;
let visitor: Page;
let sellerId: string;
let emulatorUrl: string;
const products = { hostile: "", soldOut: "", plain: "" };
const sessions = { paid: "", refunded: "" };

/** Every finding of every page, for the report; and this test's failures, reported together at its end. */
const report: Array<{
  page: string;
  size: string;
  findings: AccessibilityFinding[];
  overflow: SidewaysOverflow | null;
}> = [];
let failures: string[] = [];

const screenshotName = (name: string, size: string) =>
  `a11y-${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}-${size}`;

/**
 * Opens the page at each size with `open` (which navigates and waits until the page shows what it should),
 * runs axe and the overflow check, and takes a screenshot when one fails. Failures are collected, so one
 * broken page does not hide the next.
 */
async function check(
  page: Page,
  name: string,
  open: () => Promise<void>,
  options: AccessibilityOptions = {},
) {
  for (const { label, viewport } of SIZES) {
    const where = `${name} at ${label}px`;
    await page.setViewportSize(viewport);
    try {
      await open();
    } catch (error) {
      failures.push(`${where} did not show what it should: ${(error as Error).message.split("\n")[0]}`);
      await screenshot(page, screenshotName(name, label));
      continue;
    }
    const findings = await accessibilityFindings(page, where, options);
    const overflow = await sidewaysOverflow(page);
    report.push({ page: name, size: label, findings, overflow });
    const failed = failures.length;
    try {
      failOnSeriousFindings(where, findings);
    } catch (error) {
      failures.push((error as Error).message);
    }
    if (overflow) failures.push(describeOverflow(where, overflow));
    // Full-page screenshots take seconds on long pages: taken when a check fails, or all with A11Y_SCREENSHOTS=1.
    if (failures.length > failed || process.env.A11Y_SCREENSHOTS === "1") {
      await screenshot(page, screenshotName(name, label));
    }
  }
}

// A test that times out leaves its failures behind: they are not the next test's.
afterEach(() => {
  failures = [];
});

/** Ends a test with every failure it collected. */
function reportFailures() {
  const collected = failures;
  failures = [];
  if (collected.length > 0)
    throw new Error(`${collected.length} failed checks:\n\n${collected.join("\n\n")}`);
}

/** Waits for the toast and keeps it on screen (sonner pauses while the pointer is on it) for axe to check. */
async function showsToast(page: Page, title: string) {
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: title }).first();
  await toast.waitFor();
  await toast.hover();
}

/** Opens the path and waits for a heading that shows the page is there. */
async function visit(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await page.getByRole("heading", { name: heading }).first().waitFor();
}

/** A JSON call from inside the page, so its session cookie goes along. */
const call = async <T>(page: Page, method: string, path: string, body?: unknown) =>
  (await fromPage(page, method, path, body)) as T;

/** Uploads bytes as the web app does (intent, PUT, complete) and answers the checked upload's id. */
async function upload(page: Page, purpose: string, fileName: string, contentType: string, bytes: Buffer) {
  const intent = await call<{ uploadId: string; url: string; headers: Record<string, string> }>(
    page,
    "POST",
    "/api/uploads",
    { purpose, fileName, sizeBytes: bytes.length, contentType },
  );
  await page.evaluate(
    async ({ intent, base64 }) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const put = await fetch(intent.url, { method: "PUT", headers: intent.headers, body: bytes });
      if (!put.ok) throw new Error(`PUT upload answered ${put.status}`);
    },
    { intent, base64: bytes.toString("base64") },
  );
  await call(page, "POST", `/api/uploads/${intent.uploadId}/complete`);
  return intent.uploadId;
}

async function createProduct(
  page: Page,
  product: { title: string; description: string; price: string; stock: number | null; cover?: Buffer },
): Promise<string> {
  const fileUploadId = await upload(page, "product-file", "lessons.pdf", "application/pdf", tinyPdf());
  const coverUploadId = product.cover
    ? await upload(page, "product-cover", "cover.png", "image/png", product.cover)
    : null;
  const created = await call<{ id: string }>(page, "POST", "/api/products", {
    title: product.title,
    description: product.description,
    price: product.price,
    inventoryType: product.stock === null ? "unlimited" : "limited",
    quantityAvailable: product.stock,
    fileUploadId,
    coverUploadId,
  });
  return created.id;
}

const picture = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

type SaleRow = { id: string; customerEmail: string; status: string };

async function salesOf(page: Page): Promise<SaleRow[]> {
  return (await call<{ sales: SaleRow[] }>(page, "GET", "/api/orders")).sales;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function emulatorControl(path: string, body: unknown = {}): Promise<unknown> {
  const response = await fetch(`${emulatorUrl}/_emulator${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`emulator ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** A JSON POST to the app from outside the browser, as a visitor with no session. */
async function postAsVisitor(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** A Checkout session for the product, as Buy Now starts it; not paid yet. */
async function startCheckout(productId: string): Promise<string> {
  const { url } = (await postAsVisitor("/api/checkout", { productId })) as { url: string };
  return new URL(url).pathname.split("/").pop() ?? "";
}

/** The mailbox's links to its emails, newest first, by subject. */
async function mailboxLinks(page: Page): Promise<Array<{ subject: string; href: string }>> {
  await page.goto("/dev/mailbox");
  return page.locator("a.row").evaluateAll((rows) =>
    rows.map((row) => ({
      subject: row.querySelector(".subject")?.textContent ?? "",
      href: row.getAttribute("href") ?? "",
    })),
  );
}

async function emailLink(page: Page, subject: RegExp): Promise<string> {
  return waitFor(
    `an email "${subject}"`,
    async () => (await mailboxLinks(page)).find((m) => subject.test(m.subject))?.href,
  );
}

/** The first link (or form) on the page whose address contains `part`. */
async function linkOnPage(page: Page, part: string): Promise<string> {
  const target = page.locator(`a[href*="${part}"], form[action*="${part}"]`).first();
  const address = (await target.getAttribute("href")) ?? (await target.getAttribute("action"));
  if (!address) throw new Error(`no link to ${part} on ${page.url()}`);
  return new URL(address, server.baseUrl).pathname + new URL(address, server.baseUrl).search;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
  sellerContext = await browser.newContext({ viewport: SIZES[0].viewport, baseURL: server.baseUrl });
  await sellerContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
  visitorContext = await browser.newContext({ viewport: SIZES[0].viewport, baseURL: server.baseUrl });
  // A page that never shows what a check waits for fails that check; the run goes on to the next page.
  sellerContext.setDefaultTimeout(20_000);
  visitorContext.setDefaultTimeout(20_000);
  [seller, visitor] = await Promise.all([sellerContext.newPage(), visitorContext.newPage()]);

  // Onboarding, looking at each gate screen on the way (reported by the first test).
  const ready = await readySeller(seller, server, {
    email: SELLER_EMAIL,
    atGate: async (gate) => {
      const title = gate === "subscribe" ? "Subscription Required" : "Connect Your Stripe Account";
      await check(seller, `onboarding gate ${gate}`, () => visit(seller, "/dashboard", title));
    },
  });
  sellerId = ready.userId;
  emulatorUrl = ready.emulatorUrl;

  const profilePictureUploadId = await upload(
    seller,
    "profile-picture",
    "me.png",
    "image/png",
    await picture(400, 400, "#0f766e"),
  );
  await call(seller, "PUT", "/api/store-settings", {
    storeName: STORE_NAME,
    storeTagline: STORE_TAGLINE,
    storeDescription: STORE_DESCRIPTION,
    profilePictureUploadId,
  });
  products.plain = await createProduct(seller, {
    title: "Plain notes",
    description: "",
    price: "5",
    stock: null,
  });
  products.soldOut = await createProduct(seller, {
    title: `Sold out: ${LONG_TITLE}`.slice(0, 100),
    description: LONG_DESCRIPTION,
    price: TOP_PRICE,
    stock: 0,
  });
  products.hostile = await createProduct(seller, {
    title: LONG_TITLE,
    description: LONG_DESCRIPTION,
    price: TOP_PRICE,
    stock: 3,
    cover: await picture(1200, 630, "#4338ca"),
  });

  // A paid sale to a long address, and a refunded one.
  sessions.paid = await buyProduct(server, products.hostile, BUYER_EMAIL);
  sessions.refunded = await buyProduct(server, products.plain, REFUNDED_BUYER_EMAIL);
  const refunded = await waitFor("both sales", async () =>
    (await salesOf(seller)).find((sale) => sale.customerEmail === REFUNDED_BUYER_EMAIL),
  );
  await waitFor("the paid sale", async () =>
    (await salesOf(seller)).find((sale) => sale.customerEmail === BUYER_EMAIL),
  );
  await call(seller, "POST", `/api/orders/${refunded.id}/refund`);

  // A payment for a product deleted while its buyer was on Checkout: refunded at once, and the buyer told.
  const doomed = await createProduct(seller, {
    title: "Withdrawn sketchbook",
    description: "",
    price: "7",
    stock: null,
  });
  const doomedSession = await startCheckout(doomed);
  await call(seller, "DELETE", `/api/products/${doomed}`);
  await emulatorControl(`/checkout/sessions/${doomedSession}/complete`, {
    card: "4242424242424242",
    email: REFUNDED_BUYER_EMAIL,
  });

  // A password reset for the seller, as the Forgot-your-password dialog asks for it.
  await postAsVisitor("/api/auth/request-password-reset", {
    email: SELLER_EMAIL,
    redirectTo: "/auth?reset=true",
  });

  // A fresh download link, asked for from the product page's form.
  await postAsVisitor("/api/download-links/resend", { productId: products.hostile, email: BUYER_EMAIL });
});

afterAll(async () => {
  await writeFile("screenshots/accessibility-findings.json", `${JSON.stringify(report, null, 2)}\n`);
  await sellerContext?.close();
  await visitorContext?.close();
  await browser?.close();
  await server?.close();
});

describe("accessibility and layout, every page at 1280 and 375 px with the longest data", {
  timeout: PAGE_GROUP_TIMEOUT,
}, () => {
  it("onboarding gates: subscribe, connect", () => {
    expect(report.filter((entry) => entry.page.startsWith("onboarding gate"))).toHaveLength(4);
    reportFailures();
  });

  it("landing, legal, status, not-found and error pages", async () => {
    const hero = "Sell unlimited digital products for $10/mo";
    await check(visitor, "landing", () => visit(visitor, "/", hero));
    await check(seller, "landing signed in", () => visit(seller, "/", hero));
    await check(visitor, "terms", () => visit(visitor, "/terms", "Terms of Service"));
    await check(visitor, "privacy", () => visit(visitor, "/privacy", "Privacy Policy"));
    await check(visitor, "status", () => visit(visitor, "/status", "System Status"));

    // The error monitor with long errors in its log.
    const entries: ErrorLogEntry[] = [1, 2, 3].map((n) => ({
      type: "server",
      message: `Failed to fetch data (500) ${unbroken("TypeError:cannot-read-properties-of-undefined/", 200)}`,
      stack: unbroken("at Object.render (https://example.com/assets/app.js:1:2345) ", 600),
      timestamp: new Date(Date.UTC(2026, 0, n)).toISOString(),
      url: `${server.baseUrl}/product/${unbroken("a-very-long-product-id-", 120)}`,
      userAgent: "Mozilla/5.0",
    }));
    await visitor.goto("/terms");
    await visitor.evaluate(([key, value]) => localStorage.setItem(key, value), [
      ERROR_LOG_KEY,
      JSON.stringify(entries),
    ] as const);
    await check(visitor, "system status", () => visit(visitor, "/system-status", "System Monitor"));
    await visitor.evaluate((key) => localStorage.removeItem(key), ERROR_LOG_KEY);

    await check(visitor, "404", () => visit(visitor, "/no-such-page", "Oops! Page not found"));
    await check(visitor, "store not found", async () => {
      await visitor.goto("/store/no-such-store");
      await visitor.getByText("Store not found").first().waitFor();
    });
    // axe counts a page without an h1 as moderate only; issue 11 names this one.
    if ((await visitor.locator("h1").count()) !== 1) failures.push("The store-not-found page has no h1.");
    await check(visitor, "product not found", () => visit(visitor, "/product/no-such-product", /./));

    // A page whose code fails to load ends on the top-level error screen.
    await visitor.route("**/assets/terms-page-*.js", (route) => route.abort());
    await check(visitor, "error screen", async () => {
      await visit(visitor, "/terms", "Something went wrong");
      await visitor.getByRole("link", { name: "Return to Home" }).waitFor();
    });
    await visitor.unrouteAll();
    reportFailures();
  });

  it("auth: sign up, login, forgot password, reset with an invalid and a valid link", async () => {
    const welcome = "Welcome to Flatfee";
    await check(visitor, "auth sign up", () => visit(visitor, "/auth", welcome));
    await check(visitor, "auth sign up with errors", async () => {
      await visit(visitor, "/auth", welcome);
      await visitor.getByLabel("Email").fill("not-an-email");
      await visitor.getByLabel("Password", { exact: true }).fill("123");
      await visitor.getByRole("button", { name: "Create Account" }).click();
      await showsToast(visitor, "Validation Error");
    });
    const openLogin = async () => {
      await visit(visitor, "/auth?tab=login", welcome);
      await visitor.getByRole("tab", { name: "Login", selected: true }).waitFor();
    };
    await check(visitor, "auth login", openLogin);
    const openForgot = async () => {
      await openLogin();
      await visitor.getByRole("button", { name: "Forgot your password?" }).click();
      await visitor.getByRole("dialog").waitFor();
    };
    await check(visitor, "auth forgot password dialog", openForgot);
    await check(visitor, "auth reset invalid link", () =>
      visit(visitor, "/auth?reset=true&error=INVALID_TOKEN", "Set a new password"),
    );

    // The reset email's link, as the seller gets it. (A success toast is checked on the dashboard.)
    await openForgot();
    await visitor.getByRole("dialog").getByLabel("Email").fill(SELLER_EMAIL);
    await visitor.getByRole("dialog").getByRole("button", { name: /Send/ }).click();
    await visitor.locator("[data-sonner-toast]").filter({ hasText: "Check your email" }).waitFor();
    await visitor.goto(await emailLink(visitor, /^Reset your Flatfee password/));
    const resetLink = await linkOnPage(visitor, "reset=true");
    await check(visitor, "auth reset valid link", () => visit(visitor, resetLink, "Set a new password"));
    reportFailures();
  });

  it("seller pages: dashboard with its menus and dialogs, new product, settings", async () => {
    const sales = () => seller.getByRole("region", { name: "Customer Sales" });
    const saleActions = () =>
      sales()
        .getByRole("button", { name: `Actions for the sale to ${BUYER_EMAIL}` })
        .first();
    const openDashboard = async () => {
      await visit(seller, "/dashboard", "Dashboard");
      await sales().getByText(BUYER_EMAIL).first().waitFor();
    };
    await check(seller, "dashboard", openDashboard);
    await check(seller, "dashboard store link copied toast", async () => {
      await openDashboard();
      await seller.getByRole("button", { name: "Share My Store" }).click();
      await showsToast(seller, "Store link copied!");
    });
    await check(seller, "dashboard sale menu", async () => {
      await openDashboard();
      await saleActions().click();
      await seller.getByRole("menuitem", { name: "Refund" }).waitFor();
    });
    await check(seller, "dashboard refund dialog", async () => {
      await openDashboard();
      await saleActions().click();
      await seller.getByRole("menuitem", { name: "Refund" }).click();
      await seller.getByRole("alertdialog").waitFor();
    });
    await check(seller, "dashboard delete dialog", async () => {
      await openDashboard();
      await seller.getByRole("button", { name: `Delete ${LONG_TITLE}` }).click();
      await seller.getByRole("alertdialog").waitFor();
    });
    await check(seller, "new product", () => visit(seller, "/new", "New Product"));
    await check(seller, "new product with errors", async () => {
      await visit(seller, "/new", "New Product");
      await seller.getByRole("button", { name: "Publish Product" }).click();
      await showsToast(seller, "Missing fields");
    });
    const openSettings = async () => {
      await visit(seller, "/settings", "Store Settings");
      await seller.getByRole("button", { name: "Turn on two-factor" }).waitFor();
    };
    await check(seller, "settings", openSettings);
    await check(seller, "settings two-factor password dialog", async () => {
      await openSettings();
      await seller.getByRole("button", { name: "Turn on two-factor" }).click();
      await seller.getByRole("dialog").waitFor();
    });
    await check(seller, "library signed in as a seller", () => visit(seller, "/library", /./));

    await check(seller, "edit product", async () => {
      await visit(seller, `/dashboard/products/${products.hostile}/edit`, "Edit Product");
      await seller.waitForFunction(
        (title) => [...document.querySelectorAll("input")].some((input) => input.value === title),
        LONG_TITLE,
      );
    });
    await call(seller, "POST", "/api/discount-codes", {
      code: unbroken("FEATHERSTONEHAUGH_SPRING_", 32),
      kind: "amount",
      value: "999999.49",
      appliesTo: "chosen",
      productIds: [products.hostile, products.soldOut],
      startsAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
      endsAt: new Date(Date.UTC(2036, 11, 31)).toISOString(),
      maxUses: "1000000",
    });
    const openDiscounts = async () => {
      await visit(seller, "/dashboard/discounts", "Discount codes");
      await seller.getByText("FEATHERSTONEHAUGH_SPRING_", { exact: false }).first().waitFor();
    };
    await check(seller, "discounts", openDiscounts);
    await check(seller, "discounts new code form", async () => {
      await openDiscounts();
      await seller.getByRole("button", { name: "New code" }).click();
      await seller
        .getByRole("button", { name: /Create|Save/ })
        .first()
        .waitFor();
    });
    await check(seller, "tax settings", () => visit(seller, "/dashboard/tax", "Stripe Tax on your account"));
    await check(seller, "tax report", () => visit(seller, "/dashboard/tax/report", "Tax report"));
    await check(seller, "tax guide", () => visit(seller, "/dashboard/tax/guide", "Tax guide"));
    await check(seller, "invoices", () => visit(seller, "/dashboard/invoices", "Invoices and credit notes"));
    await check(seller, "invoices custom period", async () => {
      await visit(seller, "/dashboard/invoices", "Invoices and credit notes");
      await seller.getByLabel("Period").selectOption("custom");
      await seller.getByLabel("From").waitFor();
    });
    reportFailures();
  });

  it("buyer pages: product, store, success (paid and refunded), download, library", async () => {
    const productPage = () => visit(visitor, `/product/${products.hostile}`, LONG_TITLE);
    await check(visitor, "product", productPage);
    await check(visitor, "product resend dialog", async () => {
      await productPage();
      await visitor.getByRole("button", { name: "Resend my download link" }).click();
      await visitor.getByRole("dialog", { name: "Resend my download link" }).waitFor();
    });
    await check(visitor, "product sold out", () =>
      visit(visitor, `/product/${products.soldOut}`, /^Sold out/),
    );
    await check(visitor, "product without cover", () =>
      visit(visitor, `/product/${products.plain}`, "Plain notes"),
    );
    await check(visitor, "store", async () => {
      await visitor.goto(`/store/${sellerId}`);
      await visitor
        .getByRole("link", { name: /View Details/ })
        .first()
        .waitFor();
    });

    await check(visitor, "success without session", () => visit(visitor, "/success", /./));
    await check(visitor, "success paid", async () => {
      await visitor.goto(`/success?session_id=${sessions.paid}`);
      await visitor.getByText(LONG_TITLE).first().waitFor();
    });
    const downloadPath = await linkOnPage(visitor, "/download/");
    const billingPath = await linkOnPage(visitor, "/billing");
    await check(visitor, "invoice billing details", () => visit(visitor, billingPath, "Billing details"));
    await check(visitor, "invoice billing details with errors", async () => {
      await visit(visitor, billingPath, "Billing details");
      await visitor.getByLabel("Full name").fill("");
      await visitor.getByLabel("Business name (optional)").fill("");
      await visitor.getByRole("button", { name: "Save billing details" }).click();
      await visitor.getByRole("alert").first().waitFor();
    });
    await check(visitor, "success refunded", async () => {
      await visitor.goto(`/success?session_id=${sessions.refunded}`);
      await visitor.getByText("Plain notes").first().waitFor();
    });
    await check(visitor, "download", () => visit(visitor, downloadPath, LONG_TITLE));
    await check(visitor, "download invalid link", () => visit(visitor, "/download/not-a-real-token", /./));

    // The refunded buyer's download link, from their receipt.
    await visitor.goto(await emailLink(visitor, /^Your receipt: Plain notes/));
    const refundedDownload = await linkOnPage(visitor, "/download/");
    await check(visitor, "download refunded", () => visit(visitor, refundedDownload, /./));

    await visitor.goto(await emailLink(visitor, /^Your receipt: The_Complete/));
    const libraryPath = await linkOnPage(visitor, "/library");
    await check(visitor, "library", () => visit(visitor, libraryPath, "Your purchases"));
    await check(visitor, "library signed out without a link", () => visit(visitor, "/library", /./));
    reportFailures();
  });

  it("emails, as the mailbox shows them", async () => {
    await check(visitor, "mailbox", () => visit(visitor, "/dev/mailbox", "Mailbox"));
    const emails = await waitFor("the refund for a withdrawn product", async () => {
      const links = await mailboxLinks(visitor);
      return links.some((link) => /^Refunded:/.test(link.subject)) ? links : undefined;
    });
    const kinds = {
      "password reset": /^Reset your Flatfee password/,
      receipt: /^Your receipt:/,
      "fresh download link": /^Your download link:/,
      refund: /^Refund issued:/,
      "refund of an undeliverable purchase": /^Refunded:/,
    };
    for (const [kind, subject] of Object.entries(kinds)) {
      const email = emails.find((link) => subject.test(link.subject));
      expect(email, `an email matching ${subject}`).toBeDefined();
      await check(
        visitor,
        `email ${kind}`,
        async () => {
          await visitor.goto(email?.href ?? "");
          await visitor.locator("h1").waitFor();
        },
        // A message is shown inside the mail client's own page, which has the landmarks; Gmail and others
        // strip <main> and landmark roles from messages.
        { inapplicableRules: ["region", "landmark-one-main"] },
      );
    }
    reportFailures();
  });

  it("the dashboard's payment-failed banner", async () => {
    const events = (await (
      await fetch(`${emulatorUrl}/_emulator/events?type=customer.subscription.created`)
    ).json()) as { data: Array<{ event: { data: { object: { id: string } } } }> };
    const subscriptionId = events.data.at(-1)?.event.data.object.id;
    await emulatorControl(`/subscriptions/${subscriptionId}/renew`, { outcome: "failed" });
    await check(seller, "dashboard grace banner", async () => {
      await visit(seller, "/dashboard", "Dashboard");
      await seller.getByRole("alert").filter({ hasText: "Your last payment failed" }).waitFor();
    });
    reportFailures();
  });
});
