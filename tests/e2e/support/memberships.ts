import type { Page } from "playwright-core";

/**
 * A buyer subscribes to a tier through the JSON route the product page's form shares, then the
 * emulator's control API pays the Checkout session with 4242 (no browser needed for this part).
 */
export async function subscribeAndPay(
  baseUrl: string,
  productId: string,
  tierId: string,
  email: string,
  interval: "month" | "year" = "month",
): Promise<void> {
  const response = await fetch(`${baseUrl}/api/checkout/subscribe`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ productId, tierId, interval }),
  });
  if (!response.ok) throw new Error(`subscribe answered ${response.status}: ${await response.text()}`);
  const checkout = new URL(((await response.json()) as { url: string }).url);
  const paid = await fetch(
    `${checkout.origin}/_emulator/checkout/sessions/${checkout.pathname.split("/").pop()}/complete`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ card: "4242424242424242", email }),
    },
  );
  if (!paid.ok) throw new Error(`payment answered ${paid.status}: ${await paid.text()}`);
}

/** Opens the newest email to `to` whose subject matches, as the member's mail app would (/dev/mailbox). */
export async function openEmail(page: Page, subject: string, to: string, attempts = 100): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    await page.goto("/dev/mailbox");
    const link = page.getByRole("link", { name: new RegExp(`${subject}.*To ${to}`) }).first();
    if ((await link.count()) > 0) {
      await link.click();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no email "${subject}" to ${to}`);
}

/** Waits for a toast with this title (sonner's). */
export async function expectToast(page: Page, title: string): Promise<void> {
  await page.locator("[data-sonner-toast]").filter({ hasText: title }).last().waitFor();
}
