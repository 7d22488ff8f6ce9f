import type { Page } from "playwright-core";
import { sellerStatusSchema } from "../../../src/contracts/seller";
import type { E2EServer } from "./server";

export type ReadySeller = { email: string; password: string; userId: string; emulatorUrl: string };

let counter = 0;

/** POST (or GET) from inside the page, so the seller's session cookie goes along. */
async function fromPage(page: Page, method: "GET" | "POST", path: string): Promise<unknown> {
  return page.evaluate(
    async ({ method, path }) => {
      const response = await fetch(path, { method });
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
      return response.json();
    },
    { method, path },
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

/**
 * A seller who signed up through the form, pays the plan and finished Stripe onboarding, without
 * walking the hosted pages: the emulator's control API pays the session and completes the account.
 * The page ends signed in, on /dashboard.
 */
export async function readySeller(page: Page, server: E2EServer): Promise<ReadySeller> {
  const email = `seller-${Date.now()}-${++counter}@example.com`;
  const password = "correct-horse-42";
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL(`${server.baseUrl}/dashboard`);

  const checkout = new URL(((await fromPage(page, "POST", "/api/billing/checkout")) as { url: string }).url);
  const emulatorUrl = checkout.origin;
  const sessionId = checkout.pathname.split("/").pop() ?? "";
  await emulator(emulatorUrl, `/checkout/sessions/${sessionId}/complete`, { card: "4242424242424242" });
  await waitForStatus(page, (status) => status.canUseDashboard);

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
