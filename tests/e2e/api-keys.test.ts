import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_MESSAGES } from "../../src/contracts/api-keys";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { readySeller } from "./support/seller";
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
  await page.locator("[data-sonner-toast]").filter({ hasText: title }).last().waitFor();
}

/** What the seller's own tool does with the key: a server-side call, no cookie. */
const callApi = (key: string) =>
  fetch(`${server.baseUrl}/api/v1/products`, { headers: { authorization: `Bearer ${key}` } });

describe("API keys in settings", () => {
  it("a seller creates a key (shown once, copied), their tool uses it, and they revoke it", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: server.baseUrl,
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    const page = await context.newPage();
    await readySeller(page, server);
    await page.goto("/settings");
    await page.getByRole("heading", { level: 2, name: "API keys" }).waitFor();
    await page.getByText("No API keys yet.").waitFor();

    // A name is required: said next to the field.
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByText(API_KEY_MESSAGES.nameRequired).waitFor();
    expect(await page.getByLabel("Key name").getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("Key name").fill("Zapier");
    await page.getByRole("button", { name: "Create key" }).click();
    await expectToast(page, API_KEY_MESSAGES.createdTitle);
    const shown = page.locator("code", { hasText: "ff_live_" });
    const key = (await shown.textContent())?.trim() ?? "";
    expect(key).toMatch(/^ff_live_[A-Za-z0-9]{42}$/);
    await page.getByText(API_KEY_MESSAGES.copyNow).first().waitFor();
    await page.getByRole("button", { name: "Copy key" }).click();
    await expectToast(page, API_KEY_MESSAGES.copied);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expectAccessible(page, "settings: new API key shown");
    await screenshot(page, "api-keys-new-key");

    // The seller's tool uses it.
    expect((await callApi(key)).status).toBe(200);

    // Shown once: gone after Done, and not on the page when it is opened again.
    await page.getByRole("button", { name: "Done" }).click();
    await shown.waitFor({ state: "detached" });
    await page.reload();
    const list = page.getByRole("list", { name: "Your API keys" });
    await list.getByText("Zapier").waitFor();
    await list.getByText(`${key.slice(0, 18)}…`).waitFor();
    await list.getByText(/Last used/).waitFor();
    expect(await page.content()).not.toContain(key);

    await page.getByText("Recent calls").click();
    await page.getByRole("list", { name: "Recent API calls" }).getByText("GET /api/v1/products").waitFor();
    await expectAccessible(page, "settings: API keys and recent calls");
    await expectNoSidewaysOverflow(page, "settings: API keys (1280)");

    await page.setViewportSize(PHONE_VIEWPORT);
    await page.getByRole("heading", { name: "API keys" }).scrollIntoViewIfNeeded();
    await expectAccessible(page, "settings: API keys (375)");
    await expectNoSidewaysOverflow(page, "settings: API keys (375)");
    await screenshot(page, "api-keys-phone");

    // Revoked: refused at once.
    await page.getByRole("button", { name: "Revoke Zapier" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText(API_KEY_MESSAGES.revokeConfirm).waitFor();
    await expectAccessible(page, "settings: revoke API key dialog (375)");
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expectToast(page, API_KEY_MESSAGES.revokedTitle);
    await page.getByText("No API keys yet.").waitFor();
    const refused = await callApi(key);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toBe(API_KEY_MESSAGES.invalid);
    await context.close();
  });
});
