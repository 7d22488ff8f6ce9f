import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBERSHIP_MESSAGES } from "../../src/contracts/memberships";
import { PRODUCT_MESSAGES, type SellerProductDetail } from "../../src/contracts/products";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { fromPage, readySeller, tinyPdf } from "./support/seller";
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

function newContext(
  viewport = { width: 1280, height: 900 },
  javaScriptEnabled = true,
): Promise<BrowserContext> {
  return browser.newContext({ viewport, baseURL: server.baseUrl, javaScriptEnabled });
}

const pdf = (name: string) => ({
  name,
  mimeType: "application/pdf",
  buffer: Buffer.concat([tinyPdf(), Buffer.from(`% ${name}\n`)]),
});

/** The tier editor's card for the tier at `index` (0-based). */
const tierCard = (page: Page, index: number) =>
  page.getByRole("list", { name: "Tiers" }).locator(":scope > li").nth(index);

async function expectToast(page: Page, title: string, description?: string) {
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: title }).last();
  await toast.waitFor();
  if (description) await toast.getByText(description, { exact: true }).waitFor();
}

/** The texts of the elements a field is described by. */
async function describedBy(page: Page, field: ReturnType<Page["getByLabel"]>): Promise<string> {
  const ids = ((await field.getAttribute("aria-describedby")) ?? "").split(" ").filter(Boolean);
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(" ");
}

describe("memberships in the product editor and on the product page", () => {
  it("creates a membership with two tiers, shows them to buyers without script, and edits them (1280 px)", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await readySeller(page, server);

    // A membership has no price, stock or license keys: a tier editor instead.
    await page.goto("/new");
    await page.getByText("Membership", { exact: true }).click();
    await page.getByRole("region", { name: "Membership tiers *" }).waitFor();
    expect(await page.getByLabel("Price (USD) *", { exact: true }).count()).toBe(0);
    expect(await page.getByText("Inventory", { exact: true }).count()).toBe(0);
    await page.getByLabel("Product Title *").fill("The Watercolor Studio");
    await page.getByLabel("Description", { exact: true }).fill("New lessons every month.");
    await page.getByLabel("Digital File *").setInputFiles([pdf("basics.pdf"), pdf("pro.pdf")]);

    // The first tier without a name: the server's words, at the field, which gets the focus.
    await page.getByRole("button", { name: "Publish Product" }).click();
    await expectToast(page, PRODUCT_MESSAGES.createFailedTitle, MEMBERSHIP_MESSAGES.tierNameMissing);
    const firstName = tierCard(page, 0).getByLabel("Tier name *");
    expect(await firstName.getAttribute("aria-invalid")).toBe("true");
    expect(await describedBy(page, firstName)).toBe(MEMBERSHIP_MESSAGES.tierNameMissing);
    expect(await firstName.evaluate((element) => element === document.activeElement)).toBe(true);

    const basic = tierCard(page, 0);
    await firstName.fill("Basic");
    expect(await firstName.getAttribute("aria-invalid")).toBeNull();
    await basic.getByLabel("Tier description").fill("The monthly lesson.");
    await basic.getByLabel("Monthly price (USD) *").fill("5");
    await basic.getByLabel("Free trial (days)").fill("7");
    await basic.getByLabel("basics.pdf").check();

    await page.getByRole("button", { name: "Add tier" }).click();
    const pro = tierCard(page, 1);
    await pro.getByLabel("Tier name *").fill("Pro");
    await pro.getByLabel("Monthly price (USD) *").fill("12.50");
    await pro.getByLabel("Yearly price (optional)").fill("120");
    await pro.getByText("Save 20% against paying monthly.").waitFor();
    await pro.getByLabel("basics.pdf").check();
    await pro.getByLabel("pro.pdf").check();
    // The failed publish's toast is done with: closed, so axe checks the form, not a toast mid-fade.
    const failed = page
      .locator("[data-sonner-toast]")
      .filter({ hasText: PRODUCT_MESSAGES.createFailedTitle });
    if ((await failed.count()) > 0) {
      await failed.first().getByRole("button", { name: /close/i }).click();
      await failed.first().waitFor({ state: "detached" });
    }
    await screenshot(page, "membership-editor");
    await expectAccessible(page, "/new (membership)");

    await page.getByRole("button", { name: "Publish Product" }).click();
    await expectToast(page, PRODUCT_MESSAGES.createdTitle);
    const live = page.getByRole("region", { name: "Your product is live!" });
    await live.getByText("From $5.00/month").waitFor();
    const link = await live.getByLabel("Product link").inputValue();
    const productId = link.split("/").pop()!;

    const created = (await fromPage(page, "GET", `/api/products/${productId}`)) as SellerProductDetail;
    expect(created.kind).toBe("membership");
    const [basicFile, proFile] = created.files;
    expect(created.tiers).toMatchObject([
      {
        name: "Basic",
        description: "The monthly lesson.",
        monthlyPriceCents: 500,
        yearlyPriceCents: null,
        trialDays: 7,
        closed: false,
        fileIds: [basicFile!.id],
      },
      {
        name: "Pro",
        monthlyPriceCents: 1250,
        yearlyPriceCents: 12000,
        trialDays: 0,
        fileIds: [basicFile!.id, proFile!.id],
      },
    ]);

    // The buyer's page, without any script: a Subscribe form per tier, Yearly shows the yearly price.
    const buyer = await newContext({ width: 1280, height: 900 }, false);
    const product = await buyer.newPage();
    await product.goto(`/product/${productId}?ref=newsletter`);
    const proForm = product.getByRole("form", { name: "Pro" });
    await product.getByRole("form", { name: "Basic" }).getByText("7-day free trial").waitFor();
    expect(await product.getByRole("button", { name: "Buy Now" }).count()).toBe(0);
    await proForm.getByText("/month").waitFor();
    expect(await proForm.getByText("$120.00").isVisible()).toBe(false);
    await proForm.locator("label", { hasText: "Yearly" }).click();
    expect(await proForm.getByRole("radio", { name: /Yearly/ }).isChecked()).toBe(true);
    await proForm.getByText("$120.00").waitFor();
    expect(await proForm.getByText("$12.50").isVisible()).toBe(false);
    await screenshot(product, "membership-product-page");

    // Subscribe posts the tier, the period and the visit's source (the server's part is answered here).
    let posted = "";
    await product.route(`**/product/${productId}/subscribe`, async (route) => {
      posted = route.request().postData() ?? "";
      await route.fulfill({ status: 200, contentType: "text/html", body: "<title>posted</title>" });
    });
    await proForm.getByRole("button", { name: "Subscribe to Pro" }).click();
    await expect.poll(() => posted).not.toBe("");
    expect(Object.fromEntries(new URLSearchParams(posted))).toEqual({
      tierId: created.tiers[1]!.id,
      interval: "year",
      // The currency the tier was shown in: Checkout is made in it.
      currency: "usd",
      ref: "newsletter",
    });
    await buyer.close();

    // axe runs in the page: looked at with script on.
    const withScript = await context.newPage();
    await withScript.goto(`/product/${productId}`);
    await withScript.locator("label", { hasText: "Yearly" }).click();
    await expectAccessible(withScript, "/product (membership)");
    await expectNoSidewaysOverflow(withScript);
    await withScript.close();

    // The edit page starts from the tiers; Pro moves up, Basic closes to new members.
    await page.goto(`/dashboard/products/${productId}/edit`);
    await page.getByRole("heading", { name: "Tier 1: Basic" }).waitFor();
    expect(await tierCard(page, 1).getByLabel("Yearly price (optional)").inputValue()).toBe("120.00");
    expect(await tierCard(page, 1).getByLabel("pro.pdf").isChecked()).toBe(true);
    expect(await tierCard(page, 0).getByLabel("pro.pdf").isChecked()).toBe(false);
    await page.getByRole("button", { name: "Move Tier 2: Pro up" }).click();
    await tierCard(page, 1).getByLabel("Closed to new members").check();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, PRODUCT_MESSAGES.updatedTitle);

    const edited = (await fromPage(page, "GET", `/api/products/${productId}`)) as SellerProductDetail;
    expect(edited.tiers.map((tier) => [tier.id, tier.name, tier.closed])).toEqual([
      [created.tiers[1]!.id, "Pro", false],
      [created.tiers[0]!.id, "Basic", true],
    ]);
    expect(edited.priceCents).toBe(1250);

    // Closing every tier is refused with the server's words, next to the tiers.
    await page
      .getByRole("region", { name: "Your changes are live!" })
      .getByRole("button", { name: "Keep editing" })
      .click();
    await tierCard(page, 0).getByLabel("Closed to new members").check();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, PRODUCT_MESSAGES.updateFailedTitle, MEMBERSHIP_MESSAGES.allTiersClosed);
    await page
      .getByRole("region", { name: "Membership tiers *" })
      .getByText(MEMBERSHIP_MESSAGES.allTiersClosed)
      .waitFor();
    await screenshot(page, "membership-editor-all-closed");
    await context.close();
  });

  it("fits a phone: the tier editor and the membership page (375 px)", async () => {
    const context = await newContext(PHONE_VIEWPORT);
    const page = await context.newPage();
    await readySeller(page, server);
    await page.goto("/new");
    await page.getByText("Membership", { exact: true }).click();
    await page.getByLabel("Product Title *").fill("Phone Studio");
    await page
      .getByLabel("Digital File *")
      .setInputFiles([pdf("a-rather-long-file-name-for-a-small-phone.pdf")]);
    const tier = tierCard(page, 0);
    await tier.getByLabel("Tier name *").fill("Supporters of the studio with a long name");
    await tier.getByLabel("Monthly price (USD) *").fill("9");
    await tier.getByLabel("Yearly price (optional)").fill("90");
    await tier.getByLabel("a-rather-long-file-name-for-a-small-phone.pdf").check();
    await expectNoSidewaysOverflow(page);
    await screenshot(page, "membership-editor-phone");
    await page.getByRole("button", { name: "Publish Product" }).click();
    const live = page.getByRole("region", { name: "Your product is live!" });
    const link = await live.getByLabel("Product link").inputValue();

    await page.goto(link);
    await page.getByRole("heading", { name: "Choose your membership" }).waitFor();
    await page.locator("label", { hasText: "Yearly" }).click();
    await page.getByText("$90.00").waitFor();
    await expectNoSidewaysOverflow(page);
    await expectAccessible(page, "/product (membership, phone)");
    await screenshot(page, "membership-product-page-phone");
    await context.close();
  });
});
