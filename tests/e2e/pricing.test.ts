import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCOUNT_MESSAGES, DISCOUNT_REFUSAL_MESSAGES } from "../../src/contracts/discounts";
import { FREE_CLAIM_MESSAGES, PRODUCT_MESSAGES } from "../../src/contracts/products";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { fromPage, publishProduct, readySeller, tinyPdf } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

let server: E2EServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.close();
});

async function newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl });
  contexts.push(context);
  return context.newPage();
}

async function expectToast(page: Page, title: string) {
  await page.locator("[data-sonner-toast]").filter({ hasText: title }).last().waitFor();
}

/** The emulator's hosted Checkout: card 4242, the buyer's email, Pay. */
async function payOnCheckout(page: Page, email: string, amount: string) {
  await page.getByLabel("Card number").waitFor();
  expect(new URL(page.url()).origin).not.toBe(server.baseUrl);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiration date").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  // The EU withdrawal waiver, asked before paying for a download.
  await page.getByRole("checkbox", { name: /right of withdrawal/ }).check();
  await page.getByRole("button", { name: `Pay ${amount}` }).click();
  await page.waitForURL((url) => url.pathname === "/success" && url.searchParams.has("session_id"));
  await page.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor();
}

async function noSideways(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe("pricing tools, buyer side", () => {
  it("a 20% code limited to 2 uses: the offer link shows the new price, the buyer pays it, a third use is refused", async () => {
    const seller = await newPage();
    await readySeller(seller, server);
    const guide = await publishProduct(seller, { title: "Watercolour Guide", price: "19.99" });

    await seller.goto("/dashboard/discounts");
    await seller.getByRole("button", { name: "New code" }).click();
    const form = seller.locator("form");
    await form.getByLabel("Code", { exact: true }).fill("SPRING20");
    await form.getByRole("textbox", { name: "Percent off" }).fill("20");
    await form.getByLabel("Maximum uses").fill("2");
    await form.getByRole("button", { name: "Create code" }).click();
    await expectToast(seller, DISCOUNT_MESSAGES.createdTitle);

    // The buyer opens the offer link: the original struck through, the new price, the code carried.
    const buyer = await newPage();
    await buyer.goto(`/product/${guide}?code=spring20`);
    await buyer.getByRole("heading", { name: "Watercolour Guide" }).waitFor();
    await buyer.locator("s", { hasText: "$19.99" }).waitFor();
    await buyer.getByText("$15.99", { exact: true }).waitFor();
    await buyer.getByText("Code SPRING20: $4.00 off").waitFor();
    await screenshot(buyer, "pricing-offer-link-desktop");
    await buyer.setViewportSize(PHONE_VIEWPORT);
    await noSideways(buyer);
    await screenshot(buyer, "pricing-offer-link-phone");
    await buyer.setViewportSize({ width: 1280, height: 900 });

    await buyer.getByRole("button", { name: "Buy Now" }).click();
    await payOnCheckout(buyer, "first@example.com", "$15.99");
    await buyer.getByText("$15.99").first().waitFor();

    // The receipt names the code; the seller's sales table shows it.
    await buyer.goto("/dev/mailbox");
    await buyer.getByRole("link", { name: /Your receipt: Watercolour Guide.*first@example.com/ }).click();
    await buyer.getByText("with code SPRING20", { exact: false }).first().waitFor();
    await seller.goto("/dashboard");
    const sales = seller.getByRole("region", { name: "Customer Sales" });
    await sales.getByText("SPRING20").waitFor();
    await sales.getByText("−$4.00").waitFor();

    // A second buyer uses the last use (through the API); a third is told the code is used up.
    const second = await fromPage(buyer, "POST", "/api/checkout", { productId: guide, code: "SPRING20" });
    const secondUrl = new URL((second as { url: string }).url);
    const paid = await fetch(
      `${secondUrl.origin}/_emulator/checkout/sessions/${secondUrl.pathname.split("/").pop()}/complete`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ card: "4242424242424242", email: "second@example.com" }),
      },
    );
    expect(paid.status).toBe(200);
    await sales.getByText("second@example.com").waitFor();

    const third = await newPage(PHONE_VIEWPORT);
    await third.goto(`/product/${guide}?code=SPRING20`);
    await third.getByText(DISCOUNT_REFUSAL_MESSAGES.used_up, { exact: false }).waitFor();
    expect(await third.locator("s").count()).toBe(0);
    await third.getByText("$19.99", { exact: true }).waitFor();
    await screenshot(third, "pricing-code-used-up-phone");
    // The plain page was never changed by the pages with a code.
    await third.goto(`/product/${guide}`);
    expect(await third.getByText("Code SPRING20").count()).toBe(0);
    expect(await third.getByText(DISCOUNT_REFUSAL_MESSAGES.used_up).count()).toBe(0);
  });

  it("a seller makes a $5+ product on /new; a buyer pays $15 for it", async () => {
    const seller = await newPage();
    await readySeller(seller, server);
    await seller.goto("/new");
    await seller.getByLabel("Product Title").fill("Name Your Price Brushes");
    await seller.getByLabel("Let buyers pay what they want").check();
    await seller.getByLabel("Minimum price (USD)").fill("5");
    await seller.getByLabel("Suggested price (USD)").fill("4");
    await seller.getByLabel("Digital File").setInputFiles({
      name: "brushes.pdf",
      mimeType: "application/pdf",
      buffer: tinyPdf(),
    });
    await seller.getByText("brushes.pdf", { exact: true }).waitFor();
    await seller.getByRole("button", { name: "Publish Product" }).click();
    // The suggestion below the minimum is refused on its field, nothing is published.
    await seller.locator("form").getByText(PRODUCT_MESSAGES.suggestedTooLow).waitFor();
    expect(await seller.getByLabel("Suggested price (USD)").getAttribute("aria-invalid")).toBe("true");
    await screenshot(seller, "pricing-new-flexible-error");
    await seller.getByLabel("Suggested price (USD)").fill("10");
    await seller.getByRole("button", { name: "Publish Product" }).click();
    await expectToast(seller, PRODUCT_MESSAGES.createdTitle);
    const products = (await fromPage(seller, "GET", "/api/products")) as {
      products: Array<{ id: string; title: string }>;
    };
    const product = products.products.find((p) => p.title === "Name Your Price Brushes")!;

    const buyer = await newPage(PHONE_VIEWPORT);
    await buyer.goto(`/product/${product.id}`);
    await buyer.getByText("$5.00+", { exact: true }).waitFor();
    const amount = buyer.getByLabel("Name your price (USD)");
    expect(await amount.inputValue()).toBe("10.00");
    expect(await amount.getAttribute("inputmode")).toBe("decimal");
    await noSideways(buyer);
    await screenshot(buyer, "pricing-pwyw-phone");
    await amount.fill("3");
    await buyer.getByRole("button", { name: "Buy Now" }).click();
    await buyer.getByText("Please pay at least $5.00.").waitFor();
    await screenshot(buyer, "pricing-pwyw-refused-phone");
    await buyer.getByLabel("Name your price (USD)").fill("15");
    await buyer.getByRole("button", { name: "Buy Now" }).click();
    await payOnCheckout(buyer, "fifteen@example.com", "$15.00");
    await buyer.getByText("$15.00").first().waitFor();

    await seller.goto("/dashboard");
    const sales = seller.getByRole("region", { name: "Customer Sales" });
    await sales.getByText("fifteen@example.com").waitFor();
    await sales.getByText("$15.00").first().waitFor();
  });

  it("a buyer gets a free product by email", async () => {
    const seller = await newPage();
    await readySeller(seller, server);
    const free = await publishProduct(seller, { title: "Free Wallpapers", price: "0" });

    const buyer = await newPage();
    await buyer.goto(`/product/${free}`);
    await buyer.getByText("Free", { exact: true }).waitFor();
    expect(await buyer.getByRole("button", { name: "Buy Now" }).count()).toBe(0);
    await screenshot(buyer, "pricing-free-desktop");
    await buyer.getByRole("button", { name: "Email me the download" }).click();
    await buyer.getByText("Please enter a valid email").waitFor();
    await buyer.getByLabel("Your email").fill("fan@example.com");
    await buyer.getByRole("button", { name: "Email me the download" }).click();
    await buyer.getByRole("heading", { name: FREE_CLAIM_MESSAGES.checkEmailTitle }).waitFor();
    await buyer.getByText("fan@example.com", { exact: false }).waitFor();
    await screenshot(buyer, "pricing-free-check-email-desktop");
    await buyer.setViewportSize(PHONE_VIEWPORT);
    await noSideways(buyer);
    await screenshot(buyer, "pricing-free-check-email-phone");

    await buyer.goto("/dev/mailbox");
    await buyer.getByRole("link", { name: /Your receipt: Free Wallpapers.*fan@example.com/ }).click();
    await buyer.getByText("Amount paid: $0.00", { exact: false }).first().waitFor();
    const downloadLink = await buyer.getByRole("link", { name: "Download your file" }).getAttribute("href");
    expect(downloadLink).toMatch(/\/download\//);
    await buyer.goto(new URL(downloadLink ?? "", server.baseUrl).pathname);
    await buyer.getByText("Free Wallpapers").first().waitFor();
    await buyer.getByRole("button", { name: "Download", exact: true }).waitFor();

    await seller.goto("/dashboard");
    const sales = seller.getByRole("region", { name: "Customer Sales" });
    await sales.getByText("fan@example.com").waitFor();
    await sales.getByText("$0.00").first().waitFor();
  });
});
