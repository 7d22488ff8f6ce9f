import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISPUTE_MESSAGES } from "../../src/contracts/disputes";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { buyProduct, fromPage, publishProduct, readySeller, tinyPdf } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

const BUYER_EMAIL = "disputing-buyer@example.com";
const TITLE = "Rain on a Tin Roof";
const DESKTOP = { width: 1280, height: 900 };

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

async function newPage(viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl });
  contexts.push(context);
  return context.newPage();
}

/** The emulator's control API, as the cardholder's bank would act. */
async function control<T>(
  emulatorUrl: string,
  method: "GET" | "POST",
  path: string,
  body?: object,
): Promise<T> {
  const response = await fetch(`${emulatorUrl}/_emulator${path}`, {
    method,
    ...(body ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`emulator ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

type LoggedEvent = { event: { type: string; data: { object: Record<string, unknown> } } };

/** The charge the buyer's Checkout session made, from the emulator's event log. */
async function chargeOf(emulatorUrl: string, sessionId: string): Promise<string> {
  const events = (await control<{ data: LoggedEvent[] }>(emulatorUrl, "GET", "/events")).data.map(
    (r) => r.event,
  );
  const session = events.find(
    (event) => event.type === "checkout.session.completed" && event.data.object.id === sessionId,
  );
  const intent = session?.data.object.payment_intent;
  const charge = events.find(
    (event) => event.type === "charge.succeeded" && event.data.object.payment_intent === intent,
  );
  if (!charge) throw new Error(`no charge for ${sessionId}`);
  return String(charge.data.object.id);
}

async function downloadPathOf(sessionId: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await fetch(`${server.baseUrl}/api/orders/by-session/${sessionId}`);
    if (response.ok) {
      const path = ((await response.json()) as { purchase?: { downloadPath?: string | null } }).purchase
        ?.downloadPath;
      if (path) return path;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the order never appeared");
}

async function expectToast(page: Page, title: string) {
  await page.locator("[data-sonner-toast]").filter({ hasText: title }).last().waitFor();
}

describe("a disputed sale", () => {
  it("the buyer pays; their bank disputes; the creator sees Disputed, reviews and submits the evidence; won, the buyer downloads again", async () => {
    const seller = await newPage();
    const { emulatorUrl } = await readySeller(seller, server);
    const pdf = tinyPdf();
    const productId = await publishProduct(seller, {
      title: TITLE,
      description: "Forty minutes of rain recorded in the Scottish Highlands.",
      price: "12.00",
      file: pdf,
    });
    const sessionId = await buyProduct(server, productId, BUYER_EMAIL);
    const downloadPath = await downloadPathOf(sessionId);

    // The buyer downloads once (it goes into the download log).
    const buyer = await newPage(PHONE_VIEWPORT);
    await buyer.goto(downloadPath);
    const downloadButton = buyer.getByRole("button", { name: /download/i }).first();
    const [first] = await Promise.all([buyer.waitForEvent("download"), downloadButton.click()]);
    expect((await readFile(await first.path())).equals(pdf)).toBe(true);

    // The bank opens a dispute.
    const sales = seller.getByRole("region", { name: "Customer Sales" });
    await sales.getByText(BUYER_EMAIL).waitFor();
    const dispute = await control<{ id: string }>(
      emulatorUrl,
      "POST",
      `/charges/${await chargeOf(emulatorUrl, sessionId)}/dispute`,
      {
        reason: "product_not_received",
      },
    );

    // The creator sees it in the sales table without a reload, and opens it.
    const disputed = sales.getByRole("link", { name: "Disputed" });
    await disputed.waitFor();
    await screenshot(seller, "dispute-sales-table-1280");
    await disputed.click();
    await seller.waitForURL(`${server.baseUrl}/dashboard/disputes/${dispute.id}`);
    await seller.getByRole("heading", { name: /Dispute/ }).waitFor();
    await seller.getByText("Needs your response", { exact: true }).waitFor();
    await seller.getByText("$12.00", { exact: true }).waitFor();
    await seller.getByText("Product not received", { exact: true }).waitFor();
    await seller.getByText("Evidence due", { exact: true }).waitFor();
    expect(await seller.getByLabel("Customer email").inputValue()).toBe(BUYER_EMAIL);
    expect(await seller.getByLabel("Product description").inputValue()).toContain("Scottish Highlands");
    expect(await seller.getByLabel("Download and license activity").inputValue()).toMatch(
      /UTC downloaded guide\.pdf/,
    );
    expect(await seller.getByLabel("Terms and what the buyer accepted").inputValue()).toContain(
      "right of withdrawal",
    );
    // The PDF the preview link opens.
    const pdfHref = await seller.getByRole("link", { name: /Preview the evidence PDF/ }).getAttribute("href");
    const preview = await seller.evaluate(async (href) => {
      const response = await fetch(href);
      return { status: response.status, type: response.headers.get("content-type") };
    }, pdfHref ?? "");
    expect(preview).toEqual({ status: 200, type: "application/pdf" });

    await screenshot(seller, "dispute-page-1280");
    await expectAccessible(seller, "dispute page");
    await seller.setViewportSize(PHONE_VIEWPORT);
    await seller.evaluate(() => window.scrollTo(0, 0));
    await screenshot(seller, "dispute-page-375");
    await expectNoSidewaysOverflow(seller, "dispute page at 375 px");
    await expectAccessible(seller, "dispute page at 375 px");
    await seller.setViewportSize(DESKTOP);

    // Meanwhile the buyer's download is suspended.
    await buyer.reload();
    await buyer.getByText(DISPUTE_MESSAGES.buyerSuspended).waitFor();
    await screenshot(buyer, "dispute-download-suspended-375");

    // The creator adds their own words and submits.
    await seller
      .getByLabel("Why no refund was given")
      .fill("The buyer downloaded the recording right after paying.");
    await seller.getByRole("button", { name: "Submit evidence" }).click();
    const confirm = seller.getByRole("alertdialog", { name: "Submit evidence" });
    await confirm.getByRole("button", { name: "Submit" }).click();
    await expectToast(seller, DISPUTE_MESSAGES.submittedTitle);
    await seller.getByText("Under review", { exact: true }).waitFor();
    await seller
      .getByRole("status")
      .filter({ hasText: /^Evidence submitted/ })
      .waitFor();
    await expect(seller.getByRole("button", { name: "Submit evidence" }).count()).resolves.toBe(0);
    await seller.evaluate(() => window.scrollTo(0, 0));
    await screenshot(seller, "dispute-page-submitted-1280");
    const atStripe = (await fromPage(seller, "GET", `/api/disputes/${dispute.id}`)) as { status: string };
    expect(atStripe.status).toBe("under_review");

    // The bank decides for the creator: the page says so, and the buyer downloads again.
    await control(emulatorUrl, "POST", `/disputes/${dispute.id}/resolve`, { outcome: "won" });
    await seller
      .getByRole("status")
      .filter({ hasText: /^You won/ })
      .waitFor();
    await buyer.reload();
    const [again] = await Promise.all([
      buyer.waitForEvent("download"),
      buyer
        .getByRole("button", { name: /download/i })
        .first()
        .click(),
    ]);
    expect((await readFile(await again.path())).equals(pdf)).toBe(true);

    await seller.goto("/dashboard");
    await sales.getByRole("link", { name: "Dispute won" }).waitFor();
  });
});
