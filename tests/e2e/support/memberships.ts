import type { Page } from "playwright-core";
import { tinyPdf } from "./seller";

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

/** A tier as the helper below takes it: `fileIndexes` pick the product's files (by their order) for the tier. */
export interface TierSpec {
  name: string;
  monthlyPrice: string;
  yearlyPrice?: string;
  trialDays?: number;
  fileIndexes?: number[];
}

/**
 * A membership product made through the API from the seller's signed-in page, as the new product form
 * does: each file uploaded (a small PDF) and checked, then the product with its tiers.
 */
export async function createMembershipProduct(
  page: Page,
  product: { title: string; fileNames: string[]; tiers: TierSpec[] },
): Promise<{ id: string; tiers: Array<{ id: string; name: string }> }> {
  return page.evaluate(
    async ({ base64, title, fileNames, tiers }) => {
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
      const uploadIds: string[] = [];
      for (const fileName of fileNames) {
        const intent = await call(
          "/api/uploads",
          json({
            purpose: "product-file",
            fileName,
            sizeBytes: bytes.length,
            contentType: "application/pdf",
          }),
        );
        const put = await fetch(intent.url, { method: "PUT", headers: intent.headers, body: bytes });
        if (!put.ok) throw new Error(`PUT upload: ${put.status}`);
        await call(`/api/uploads/${intent.uploadId}/complete`, { method: "POST" });
        uploadIds.push(intent.uploadId);
      }
      return call(
        "/api/products",
        json({
          kind: "membership",
          title,
          files: uploadIds.map((uploadId) => ({ uploadId })),
          tiers: tiers.map(({ fileIndexes, ...tier }) => ({
            ...tier,
            files: (fileIndexes ?? []).map((index) => ({ uploadId: uploadIds[index] })),
          })),
        }),
      );
    },
    { base64: tinyPdf().toString("base64"), ...product },
  );
}
