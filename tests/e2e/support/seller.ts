import type { Page } from "playwright-core";
import { sellerStatusSchema } from "../../../src/contracts/seller";
import type { E2EServer } from "./server";

export type ReadySeller = { email: string; password: string; userId: string; emulatorUrl: string };

let counter = 0;

/** A call to the app (with a JSON body, if any) from inside the page, so its session cookie goes along. */
export async function fromPage(page: Page, method: string, path: string, body?: unknown): Promise<unknown> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      });
      if (!response.ok)
        throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
      return response.status === 204 ? null : response.json();
    },
    { method, path, body },
  );
}

async function emulator(emulatorUrl: string, path: string, body: object = {}): Promise<void> {
  const response = await fetch(`${emulatorUrl}/_emulator${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`emulator ${path} answered ${response.status}: ${await response.text()}`);
}

async function waitForStatus(
  page: Page,
  ready: (status: ReturnType<typeof sellerStatusSchema.parse>) => boolean,
) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const status = sellerStatusSchema.parse(await fromPage(page, "GET", "/api/seller/status"));
    if (ready(status)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the seller never became ready");
}

/** The screens onboarding stops a new seller at, in order. */
export type OnboardingGate = "subscribe" | "connect";

export type ReadySellerOptions = {
  email?: string;
  /** Runs while the seller stands at each gate (e.g. to look at its screen); must leave the page on the app. */
  atGate?: (gate: OnboardingGate) => Promise<void>;
};

/**
 * A seller who signed up through the form, pays the plan and finished Stripe onboarding, without
 * walking the hosted pages: the emulator's control API pays the session and completes the account.
 * The page ends signed in, on /dashboard.
 */
export async function readySeller(
  page: Page,
  server: E2EServer,
  options: ReadySellerOptions = {},
): Promise<ReadySeller> {
  const email = options.email ?? `seller-${Date.now()}-${++counter}@example.com`;
  const password = "correct-horse-42";
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL(`${server.baseUrl}/dashboard`);
  await options.atGate?.("subscribe");

  const checkout = new URL(((await fromPage(page, "POST", "/api/billing/checkout")) as { url: string }).url);
  const emulatorUrl = checkout.origin;
  const sessionId = checkout.pathname.split("/").pop() ?? "";
  await emulator(emulatorUrl, `/checkout/sessions/${sessionId}/complete`, { card: "4242424242424242" });
  await waitForStatus(page, (status) => status.canUseDashboard);
  await options.atGate?.("connect");

  // The account link (`/setup/s/{token}`) does not name the account; its page does.
  const onboarding = ((await fromPage(page, "POST", "/api/payouts/onboarding")) as { url: string }).url;
  const accountId = /acct_[A-Za-z0-9]+/.exec(await (await fetch(onboarding)).text())?.[0];
  if (!accountId) throw new Error(`no account id on the onboarding page ${onboarding}`);
  await emulator(emulatorUrl, `/accounts/${accountId}/complete_onboarding`);
  await waitForStatus(page, (status) => status.canUseDashboard && status.payouts.onboardingComplete);

  const session = (await fromPage(page, "GET", "/api/auth/get-session")) as { user: { id: string } };
  await page.goto("/dashboard");
  return { email, password, userId: session.user.id, emulatorUrl };
}

/** A small valid PDF, enough for the server's content check. */
export function tinyPdf(): Buffer {
  return Buffer.from(
    "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
  );
}

/**
 * What the new product form does, from the seller's signed-in page: upload a PDF (a tiny one unless
 * `file` is given), then publish it, unlimited unless `stock` is given. Answers the product id.
 */
export async function publishProduct(
  page: Page,
  product: {
    title: string;
    price: string;
    description?: string;
    file?: Buffer;
    stock?: number | null;
    /** Every sale gets a license key (off unless given). */
    issueLicenseKeys?: boolean;
  },
): Promise<string> {
  const {
    file = tinyPdf(),
    stock = null,
    description = "",
    title,
    price,
    issueLicenseKeys = false,
  } = product;
  return page.evaluate(
    async ({ base64, title, price, description, stock, issueLicenseKeys }) => {
      const call = async (path: string, init: RequestInit = {}) => {
        const response = await fetch(path, init);
        if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${await response.text()}`);
        return response.status === 204 ? null : response.json();
      };
      const json = (body: unknown): RequestInit => ({
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const intent = await call(
        "/api/uploads",
        json({
          purpose: "product-file",
          fileName: "guide.pdf",
          sizeBytes: bytes.length,
          contentType: "application/pdf",
        }),
      );
      const put = await fetch(intent.url, { method: "PUT", headers: intent.headers, body: bytes });
      if (!put.ok) throw new Error(`PUT upload: ${put.status}`);
      await call(`/api/uploads/${intent.uploadId}/complete`, { method: "POST" });
      const created = await call(
        "/api/products",
        json({
          title,
          description,
          price,
          inventoryType: stock === null ? "unlimited" : "limited",
          quantityAvailable: stock,
          issueLicenseKeys,
          fileUploadId: intent.uploadId,
        }),
      );
      return created.id as string;
    },
    { base64: file.toString("base64"), title, price, description, stock, issueLicenseKeys },
  );
}

/**
 * A buyer with no account buys the product: Buy Now through the API, then the emulator pays the
 * Checkout session with that email (its webhook fulfils the order, as a real payment would).
 * Answers the Checkout session id (the success page's `session_id`).
 */
export async function buyProduct(server: E2EServer, productId: string, buyerEmail: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ productId }),
  });
  if (!response.ok) throw new Error(`checkout answered ${response.status}: ${await response.text()}`);
  const checkout = new URL(((await response.json()) as { url: string }).url);
  const sessionId = checkout.pathname.split("/").pop() ?? "";
  await emulator(checkout.origin, `/checkout/sessions/${sessionId}/complete`, {
    card: "4242424242424242",
    email: buyerEmail,
  });
  return sessionId;
}
