import { writeFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll } from "vitest";
import { PRODUCT_LIMITS } from "../../../src/contracts/products";
import { STORE_TEXT_LIMITS } from "../../../src/contracts/store-settings";
import {
  type AccessibilityFinding,
  type AccessibilityOptions,
  accessibilityFindings,
  describeOverflow,
  failOnSeriousFindings,
  type SidewaysOverflow,
  sidewaysOverflow,
} from "./accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./browser";
import { buyProduct, fromPage, readySeller, tinyPdf } from "./seller";
import { type E2EServer, startE2EServer } from "./server";

/**
 * The store the accessibility checks look at (tests/e2e/accessibility-*.test.ts, split in two so the
 * two browser workers share the work): a seller and their pages filled with the longest data the limits
 * allow, sales paid and refunded, and every email a buyer or the seller gets. Each file sets up its own
 * (server, browser, seller, data: the same in both) and checks its own pages with `check`.
 */

/** Each test checks a dozen pages twice; axe takes a few seconds a page on a busy machine. */
export const PAGE_GROUP_TIMEOUT = 300_000;

const SIZES = [
  { label: "1280", viewport: { width: 1280, height: 800 } },
  { label: "375", viewport: PHONE_VIEWPORT },
] as const;

/** `text` repeated to exactly `length` characters (without spaces in `text`: the worst case for wrapping). */
export const unbroken = (text: string, length: number) =>
  text.repeat(Math.ceil(length / text.length)).slice(0, length);
/** A 60-character address. */
const longEmail = (local: string) => `${local.slice(0, 60 - "@example.com".length)}@example.com`;

export const SELLER_EMAIL = longEmail("alexandra.featherstonehaugh-montgomery.lettering-studio");
export const BUYER_EMAIL = longEmail("maximilian.cholmondeley-worthington.illustration-fan");
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
export const LONG_TITLE = `The_Complete_Watercolour_and_Gouache_Masterclass ${unbroken("Supercalifragilistic", 35)} Edition_2026_v2`;
const LONG_DESCRIPTION = `${"Forty-two video lessons, printable worksheets and brush presets. ".repeat(20)}Download: https://example.com/${unbroken("very-long-path-segment-", 120)}`;
/** The highest price the limits allow: $999,999.99. */
const TOP_PRICE = (PRODUCT_LIMITS.maxPriceCents / 100).toFixed(2);

export interface AccessibilityStore {
  server: E2EServer;
  /** The signed-in seller's page and a signed-out visitor's (the buyer's) page. */
  seller: Page;
  visitor: Page;
  sellerId: string;
  emulatorUrl: string;
  products: { hostile: string; soldOut: string; plain: string };
  sessions: { paid: string; refunded: string };
  /** Every finding of every page this file checked, for the report. */
  report: Array<{
    page: string;
    size: string;
    findings: AccessibilityFinding[];
    overflow: SidewaysOverflow | null;
  }>;
  /**
   * Opens the page at each size with `open` (which navigates and waits until the page shows what it
   * should), runs axe and the overflow check, and takes a screenshot when one fails. Failures are
   * collected, so one broken page does not hide the next.
   */
  check(page: Page, name: string, open: () => Promise<void>, options?: AccessibilityOptions): Promise<void>;
  /** A failure of this test found some other way, reported with the others at its end. */
  fail(message: string): void;
  /** Ends a test with every failure it collected. */
  reportFailures(): void;
  /** The first link (or form) on the page whose address contains `part`. */
  linkOnPage(page: Page, part: string): Promise<string>;
  /** A POST to the Stripe emulator's control API. */
  emulatorControl(path: string, body?: unknown): Promise<unknown>;
}

const screenshotName = (name: string, size: string) =>
  `a11y-${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}-${size}`;

/** Waits for the toast and keeps it on screen (sonner pauses while the pointer is on it) for axe to check. */
export async function showsToast(page: Page, title: string) {
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: title }).first();
  await toast.waitFor();
  await toast.hover();
}

/** Opens the path and waits for a heading that shows the page is there. */
export async function visit(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await page.getByRole("heading", { name: heading }).first().waitFor();
}

/** A JSON call from inside the page, so its session cookie goes along. */
export const call = async <T>(page: Page, method: string, path: string, body?: unknown) =>
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

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** The mailbox's links to its emails, newest first, by subject. */
export async function mailboxLinks(page: Page): Promise<Array<{ subject: string; href: string }>> {
  await page.goto("/dev/mailbox");
  return page.locator("a.row").evaluateAll((rows) =>
    rows.map((row) => ({
      subject: row.querySelector(".subject")?.textContent ?? "",
      href: row.getAttribute("href") ?? "",
    })),
  );
}

export async function emailLink(page: Page, subject: RegExp): Promise<string> {
  return waitFor(
    `an email "${subject}"`,
    async () => (await mailboxLinks(page)).find((m) => subject.test(m.subject))?.href,
  );
}

/**
 * Sets up the store for this file's tests (beforeAll) and ends it (afterAll), writing every finding of
 * every impact to `screenshots/<findingsFile>`, beside the screenshots. With `checkGates`, onboarding
 * checks each gate screen on the way (reported by a test of the file: four entries "onboarding gate …").
 */
export function accessibilityStore(options: {
  findingsFile: string;
  checkGates?: boolean;
}): AccessibilityStore {
  let browser: Browser | undefined;
  let sellerContext: BrowserContext | undefined;
  let visitorContext: BrowserContext | undefined;
  let failures: string[] = [];
  const store = {
    products: { hostile: "", soldOut: "", plain: "" },
    sessions: { paid: "", refunded: "" },
    report: [],
  } as unknown as AccessibilityStore;

  store.check = async (page, name, open, accessibilityOptions = {}) => {
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
      const findings = await accessibilityFindings(page, where, accessibilityOptions);
      const overflow = await sidewaysOverflow(page);
      store.report.push({ page: name, size: label, findings, overflow });
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
  };
  store.fail = (message) => {
    failures.push(message);
  };
  store.reportFailures = () => {
    const collected = failures;
    failures = [];
    if (collected.length > 0)
      throw new Error(`${collected.length} failed checks:\n\n${collected.join("\n\n")}`);
  };
  store.linkOnPage = async (page, part) => {
    const target = page.locator(`a[href*="${part}"], form[action*="${part}"]`).first();
    const address = (await target.getAttribute("href")) ?? (await target.getAttribute("action"));
    if (!address) throw new Error(`no link to ${part} on ${page.url()}`);
    const baseUrl = store.server.baseUrl;
    return new URL(address, baseUrl).pathname + new URL(address, baseUrl).search;
  };
  store.emulatorControl = async (path, body = {}) => {
    const response = await fetch(`${store.emulatorUrl}/_emulator${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`emulator ${path} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };

  /** A JSON POST to the app from outside the browser, as a visitor with no session. */
  async function postAsVisitor(path: string, body: unknown): Promise<unknown> {
    const response = await fetch(`${store.server.baseUrl}${path}`, {
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

  // A test that times out leaves its failures behind: they are not the next test's.
  afterEach(() => {
    failures = [];
  });

  beforeAll(async () => {
    const [server, launched] = await Promise.all([startE2EServer(), launchBrowser()]);
    store.server = server;
    browser = launched;
    sellerContext = await browser.newContext({ viewport: SIZES[0].viewport, baseURL: server.baseUrl });
    await sellerContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    visitorContext = await browser.newContext({ viewport: SIZES[0].viewport, baseURL: server.baseUrl });
    // A page that never shows what a check waits for fails that check; the run goes on to the next page.
    sellerContext.setDefaultTimeout(20_000);
    visitorContext.setDefaultTimeout(20_000);
    const [seller, visitor] = await Promise.all([sellerContext.newPage(), visitorContext.newPage()]);
    store.seller = seller;
    store.visitor = visitor;
    const { products, sessions } = store;

    // Onboarding, looking at each gate screen on the way when asked to.
    const ready = await readySeller(seller, server, {
      email: SELLER_EMAIL,
      ...(options.checkGates
        ? {
            atGate: async (gate) => {
              const title = gate === "subscribe" ? "Subscription Required" : "Connect Your Stripe Account";
              await store.check(seller, `onboarding gate ${gate}`, () => visit(seller, "/dashboard", title));
            },
          }
        : {}),
    });
    store.sellerId = ready.userId;
    store.emulatorUrl = ready.emulatorUrl;

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
    await store.emulatorControl(`/checkout/sessions/${doomedSession}/complete`, {
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
    await writeFile(`screenshots/${options.findingsFile}`, `${JSON.stringify(store.report, null, 2)}\n`);
    await sellerContext?.close();
    await visitorContext?.close();
    await browser?.close();
    await store.server?.close();
  });

  return store;
}
