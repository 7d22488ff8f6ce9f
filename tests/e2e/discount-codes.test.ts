import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCOUNT_MESSAGES } from "../../src/contracts/discounts";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { publishProduct, readySeller } from "./support/seller";
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

async function expectToast(page: Page, title: string) {
  const toasts = page.locator("[data-sonner-toast]");
  await toasts
    .filter({ hasText: title })
    .last()
    .waitFor()
    .catch(async (error: Error) => {
      throw new Error(`${error.message}\nToasts on screen: ${JSON.stringify(await toasts.allInnerTexts())}`);
    });
}

/** A buyer with no account uses the code: Buy Now through the API, then the emulator pays. */
async function buyWithCode(productId: string, code: string, email: string) {
  const response = await fetch(`${server.baseUrl}/api/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ productId, code }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const checkout = new URL(((await response.json()) as { url: string }).url);
  const sessionId = checkout.pathname.split("/").pop() ?? "";
  const paid = await fetch(`${checkout.origin}/_emulator/checkout/sessions/${sessionId}/complete`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ card: "4242424242424242", email }),
  });
  expect(paid.status).toBe(200);
}

describe("discount codes", () => {
  it("a seller creates a 20% code limited to 2 uses on /dashboard/discounts, and sees its uses and revenue", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: server.baseUrl,
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    const page = await context.newPage();
    await readySeller(page, server);
    const guide = await publishProduct(page, { title: "Watercolour Guide", price: "19.99" });
    await publishProduct(page, { title: "Brush Pack", price: "9.00" });

    // From the dashboard.
    await page.goto("/dashboard");
    await page.getByRole("link", { name: "Discount codes" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard/discounts`);
    await page.getByRole("heading", { level: 1, name: DISCOUNT_MESSAGES.pageTitle }).waitFor();
    await page.getByText("No discount codes yet").waitFor();

    await page.getByRole("button", { name: "New code" }).click();
    const form = page.locator("form");
    await form.getByLabel("Code", { exact: true }).fill("spring 20");
    await form.getByRole("textbox", { name: "Percent off" }).fill("120");
    await form.getByLabel("Maximum uses").fill("2");
    await form.getByRole("button", { name: "Create code" }).click();
    // Each problem next to its field; nothing is saved.
    const code = form.getByLabel("Code", { exact: true });
    await form.getByText(DISCOUNT_MESSAGES.codeCharacters).waitFor();
    await form.getByText(DISCOUNT_MESSAGES.percentInvalid).waitFor();
    expect(await code.getAttribute("aria-invalid")).toBe("true");
    await screenshot(page, "discounts-form-errors");

    await code.fill("spring20");
    await form.getByRole("textbox", { name: "Percent off" }).fill("20");
    await form.getByRole("button", { name: "Create code" }).click();
    await expectToast(page, DISCOUNT_MESSAGES.createdTitle);
    const list = page.getByRole("list", { name: "Your discount codes" });
    const row = list.getByRole("listitem").filter({ hasText: "SPRING20" });
    await row.getByText("Active", { exact: true }).waitFor();
    await row.getByText("20% off").waitFor();
    await row.getByText("All products").waitFor();
    await row.getByText("0 of 2").waitFor();
    await row.getByText("$0.00").waitFor();

    // A buyer uses it: the list follows the sale (the server pushes it), with its revenue.
    await buyWithCode(guide, "Spring20", "buyer@example.com");
    await row.getByText("1 of 2").waitFor();
    await row.getByText("$15.99").waitFor();

    // The offer link of one product, with the code in it.
    await row.getByRole("button", { name: "Copy an offer link of SPRING20" }).click();
    await page.getByRole("menuitem", { name: "Watercolour Guide" }).click();
    await expectToast(page, DISCOUNT_MESSAGES.offerLinkCopied);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${server.baseUrl}/product/${guide}?code=SPRING20`,
    );

    // The code taken already is refused on its field.
    await page.getByRole("button", { name: "New code" }).click();
    await form.getByLabel("Code", { exact: true }).fill("SPRING20");
    await form.getByRole("textbox", { name: "Percent off" }).fill("10");
    await form.getByRole("button", { name: "Create code" }).click();
    await form.getByText(DISCOUNT_MESSAGES.codeTaken).waitFor();
    await form.getByRole("button", { name: "Cancel" }).click();

    await row.getByRole("button", { name: "Pause SPRING20" }).click();
    await row.getByText("Paused", { exact: true }).waitFor();
    await screenshot(page, "discounts-desktop");

    await page.setViewportSize(PHONE_VIEWPORT);
    await row.getByText("1 of 2").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "discounts-phone");
    await page.getByRole("button", { name: "New code" }).click();
    await screenshot(page, "discounts-form-phone");
    await form.getByRole("button", { name: "Cancel" }).click();

    await row.getByRole("button", { name: "Resume SPRING20" }).click();
    await row.getByText("Active", { exact: true }).waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });

    // Limited to one product: its offer link is one button.
    await row.getByRole("button", { name: "Edit SPRING20" }).click();
    await form.getByRole("radio", { name: /Chosen products/ }).click();
    await form.getByRole("checkbox", { name: /Watercolour Guide/ }).check();
    await screenshot(page, "discounts-edit-chosen");
    await form.getByRole("button", { name: "Save changes" }).click();
    await expectToast(page, DISCOUNT_MESSAGES.savedTitle);
    await row.getByText("Watercolour Guide").waitFor();
    await row.getByRole("button", { name: "Copy offer link of SPRING20" }).click();
    await expectToast(page, DISCOUNT_MESSAGES.offerLinkCopied);

    // The sales table shows the code and what it saved.
    await page.goto("/dashboard");
    const sales = page.getByRole("region", { name: "Customer Sales" });
    await sales.getByText("SPRING20").waitFor();
    await sales.getByText("−$4.00").waitFor();
    await screenshot(page, "discounts-dashboard");
    await page.goto("/dashboard/discounts");
    await row.getByRole("button", { name: "Delete SPRING20" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expectToast(page, DISCOUNT_MESSAGES.deletedTitle);
    await page.getByText("No discount codes yet").waitFor();
    await context.close();
  });
});
