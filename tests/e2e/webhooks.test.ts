import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_MESSAGES } from "../../src/contracts/webhooks";
import { eventually } from "../api/support/wait";
import { startWebhookReceiver, verifyStandardWebhook } from "../api/support/webhook-receiver";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT } from "./support/browser";
import { buyProduct, publishProduct, readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

let server: E2EServer;
let browser: Browser;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  [server, browser, receiver] = await Promise.all([
    startE2EServer(),
    launchBrowser(),
    startWebhookReceiver(),
  ]);
});
afterAll(async () => {
  await receiver?.close();
  await browser?.close();
  await server?.close();
});

describe("webhooks", () => {
  it("a seller adds an endpoint on /dashboard/webhooks, a sale reaches their receiver signed, and the page shows the delivery", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: server.baseUrl,
    });
    const page = await context.newPage();
    await readySeller(page, server);
    const productId = await publishProduct(page, { title: "Lo-fi Sample Pack", price: "12.00" });

    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard/webhooks`);
    await page.getByRole("heading", { level: 1, name: WEBHOOK_MESSAGES.pageTitle }).waitFor();
    await page.getByText("No endpoints yet").waitFor();

    // A private address is refused at the field (the local setup only lets this machine through).
    const url = page.getByLabel("Endpoint URL");
    await url.fill("http://10.0.0.7/hooks");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText(WEBHOOK_MESSAGES.privateAddress).waitFor();
    expect(await url.getAttribute("aria-invalid")).toBe("true");

    await url.fill(`${receiver.url}/flatfee`);
    await page.getByRole("checkbox", { name: /product\.sold_out/ }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const card = page.getByRole("heading", { level: 3, name: `${receiver.url}/flatfee` });
    await card.waitFor();
    await page.getByText("No deliveries yet.").waitFor();

    await page.getByRole("button", { name: "Reveal" }).click();
    const secret =
      (await page.locator("code", { hasText: /^whsec_[A-Za-z0-9+/=]+$/ }).textContent())?.trim() ?? "";
    expect(secret).toMatch(/^whsec_/);

    await buyProduct(server, productId, "listener@example.com");
    await eventually(async () => expect(receiver.received).toHaveLength(1), 20_000);
    const [webhook] = receiver.received;
    expect(verifyStandardWebhook(secret, webhook!)).toBe(true);
    expect(JSON.parse(webhook!.body)).toMatchObject({
      type: "sale.completed",
      data: {
        product_id: productId,
        product_title: "Lo-fi Sample Pack",
        email: "listener@example.com",
        amount: 1200,
      },
    });

    // The page hears about the sale and shows how the delivery went.
    const deliveries = page.getByRole("list", { name: "Deliveries" });
    await deliveries.getByText("Response 204").waitFor({ timeout: 20_000 });
    await deliveries.getByText("Delivered").waitFor();

    await page.getByRole("button", { name: "Send example" }).click();
    await page.locator("[data-sonner-toast]", { hasText: WEBHOOK_MESSAGES.exampleSentTitle }).waitFor();
    await eventually(async () => expect(receiver.received).toHaveLength(2), 20_000);
    expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({ type: "sale.completed", test: true });
    await expect.poll(() => deliveries.getByText("Delivered").count(), { timeout: 20_000 }).toBe(2);

    await deliveries
      .getByRole("button", { name: /Resend/ })
      .first()
      .click();
    await eventually(async () => expect(receiver.received).toHaveLength(3), 20_000);
    expect(receiver.received[2]!.headers["webhook-id"]).toBe(receiver.received[1]!.headers["webhook-id"]);

    await page.waitForTimeout(500);
    await expectAccessible(page, "/dashboard/webhooks");
    await expectNoSidewaysOverflow(page, "/dashboard/webhooks");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: "/tmp/webhooks-desktop.png", fullPage: true });

    await page.setViewportSize(PHONE_VIEWPORT);
    await expectNoSidewaysOverflow(page, "/dashboard/webhooks at 375 px");
    await expectAccessible(page, "/dashboard/webhooks at 375 px");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: "/tmp/webhooks-phone.png", fullPage: true });
    await context.close();
  });
});
