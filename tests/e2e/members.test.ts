import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT } from "./support/browser";
import { createMembershipProduct, expectToast, subscribeAndPay, type TierSpec } from "./support/memberships";
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

const DESKTOP = { width: 1280, height: 900 };
const stamp = Date.now();
const ADA = `ada-${stamp}@example.com`;
const BOB = `bob-${stamp}@example.com`;
const CYD = `cyd-${stamp}@example.com`;

const newContext = (viewport = DESKTOP): Promise<BrowserContext> =>
  browser.newContext({ viewport, baseURL: server.baseUrl, acceptDownloads: true });

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `/tmp/members-${name}.png`, fullPage: true });

/** The page at both widths: no serious axe finding, nothing wider than the screen, a screenshot of each. */
async function checkLayout(page: Page, name: string) {
  for (const [label, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE_VIEWPORT],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `${name} (${label})`);
    await expectNoSidewaysOverflow(page, `${name} (${label})`);
    await shot(page, `${name}-${label}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** A membership of one file that every tier gives. */
const publishMembership = (page: Page, title: string, tiers: TierSpec[]) =>
  createMembershipProduct(page, {
    title,
    fileNames: ["a.pdf"],
    tiers: tiers.map((tier) => ({ ...tier, fileIndexes: [0] })),
  });

const row = (page: Page, email: string) => page.locator("tbody tr").filter({ hasText: email });
const actionsOf = (page: Page, email: string) =>
  page.getByRole("button", { name: new RegExp(`^Actions for ${email.replace(/[.]/g, "\\.")} `) });

const subscribe = (productId: string, tierId: string, email: string, interval: "month" | "year" = "month") =>
  subscribeAndPay(server.baseUrl, productId, tierId, email, interval);

describe("the members page", () => {
  it("explains itself empty, lists members live, filters, exports, cancels at period end and now", async () => {
    const seller = await (await newContext()).newPage();
    await readySeller(seller, server);

    // In the Sales navigation; empty, it says where members come from.
    await seller.getByRole("link", { name: "Members" }).click();
    await seller.getByRole("heading", { name: "Members", level: 1 }).waitFor();
    await seller.getByText("No members yet").waitFor();
    expect(await seller.getByRole("link", { name: "Create a membership product" }).getAttribute("href")).toBe(
      "/new",
    );
    expect(await seller.getByLabel("Search by email").count()).toBe(0);
    await checkLayout(seller, "empty");

    const club = await publishMembership(seller, "Members Only", [
      { name: "Fan", monthlyPrice: "5", yearlyPrice: "50" },
      { name: "Patron", monthlyPrice: "20" },
    ]);
    const zine = await publishMembership(seller, "Zine Club", [{ name: "Reader", monthlyPrice: "3" }]);
    await subscribe(club.id, club.tiers[0]!.id, ADA, "year");
    await subscribe(club.id, club.tiers[1]!.id, BOB);
    await subscribe(zine.id, zine.tiers[0]!.id, CYD);

    // They arrive without a reload (the webhooks' realtime event), newest first.
    await row(seller, ADA).waitFor();
    await row(seller, CYD).waitFor();
    await row(seller, BOB).waitFor();
    expect(await seller.locator("tbody tr td:first-child p:first-child").allTextContents()).toEqual([
      CYD,
      BOB,
      ADA,
    ]);
    const ada = (await row(seller, ADA).textContent()) ?? "";
    expect(ada).toContain("Members Only");
    expect(ada).toContain("Fan");
    expect(ada).toContain("$50.00");
    expect(ada).toContain("Yearly");
    expect(ada).toContain("Active");
    expect(ada).toMatch(/Renews on \w{3} \d{2}, \d{4} \d{2}:\d{2}/);
    await checkLayout(seller, "list");

    // Filters: product (two membership products), status, search.
    await seller.getByLabel("Product").selectOption({ label: "Zine Club" });
    await seller.waitForFunction(() => document.querySelectorAll("tbody tr").length === 1);
    await row(seller, CYD).waitFor();
    await seller.getByLabel("Product").selectOption({ label: "All products" });
    await seller.getByLabel("Search by email").fill(`bob-${stamp}`);
    await seller.waitForFunction(() => document.querySelectorAll("tbody tr").length === 1);
    await row(seller, BOB).waitFor();
    await seller.getByLabel("Search by email").fill("");
    await seller.waitForFunction(() => document.querySelectorAll("tbody tr").length === 3);

    // Cancel at period end, from the keyboard: the row changes from the answer, a toast confirms.
    await actionsOf(seller, ADA).focus();
    await seller.keyboard.press("Enter");
    await seller.getByRole("menuitem", { name: "Cancel at period end" }).waitFor();
    await seller.keyboard.press("Enter");
    await expectToast(seller, "Membership set to end");
    await row(seller, ADA).getByText("Canceled at period end").waitFor();
    await row(seller, ADA)
      .getByText(/^Ends on/)
      .waitFor();

    // Cancel now asks first, says access ends at once, and gives focus back to the row's button.
    await actionsOf(seller, BOB).click();
    await seller.getByRole("menuitem", { name: "Cancel now" }).click();
    const dialog = seller.getByRole("alertdialog", { name: "Cancel membership now?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("at once");
    expect(await seller.evaluate(() => document.activeElement?.textContent)).toBe("Keep membership");
    // The dialog alone: the earlier toast, still fading under load, would be measured half-transparent.
    await expect.poll(() => seller.locator("[data-sonner-toast]").count(), { timeout: 15_000 }).toBe(0);
    await checkLayout(seller, "cancel-now-dialog");
    await dialog.getByRole("button", { name: "Cancel now" }).click();
    await expectToast(seller, "Membership canceled");
    await dialog.waitFor({ state: "detached" });
    await row(seller, BOB).getByText("Ended", { exact: true }).waitFor();
    expect(
      await seller.evaluate(() =>
        document.activeElement?.getAttribute("aria-label")?.startsWith("Actions for bob"),
      ),
    ).toBe(true);

    // Status filter, and an ended membership offers no cancellation.
    await seller.getByLabel("Status").selectOption({ label: "Ended" });
    await seller.waitForFunction(() => document.querySelectorAll("tbody tr").length === 1);
    await row(seller, BOB).waitFor();
    await actionsOf(seller, BOB).click();
    expect(await seller.getByRole("menuitem", { name: "Cancel now" }).getAttribute("aria-disabled")).toBe(
      "true",
    );
    await seller.keyboard.press("Escape");
    await seller.getByLabel("Status").selectOption({ label: "All" });
    await seller.waitForFunction(() => document.querySelectorAll("tbody tr").length === 3);

    // Refund last payment asks first, with the choice to end the paid period's access.
    await actionsOf(seller, CYD).click();
    await seller.getByRole("menuitem", { name: "Refund last payment" }).click();
    const refund = seller.getByRole("alertdialog", { name: "Refund last payment?" });
    await refund.waitFor();
    await refund.getByLabel("Also end access for the period it paid for").check();
    await checkLayout(seller, "refund-dialog");
    await refund.getByRole("button", { name: "Don't refund" }).click();
    await refund.waitFor({ state: "detached" });

    // Export CSV: the filtered members, in the browser's time zone.
    await seller.getByLabel("Product").selectOption({ label: "Members Only" });
    await seller.waitForFunction(() => document.querySelectorAll("tbody tr").length === 2);
    const [download] = await Promise.all([
      seller.waitForEvent("download"),
      seller.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile((await download.path()) ?? "", "utf8")).trim().split("\n");
    expect(csv[0]).toBe("Email,Product,Tier,Interval,Amount,Status,Started,Renews or Ends,Lifetime Spend");
    expect(csv.slice(1).map((line) => line.split(",")[0])).toEqual([BOB, ADA]);
    await expectToast(seller, "Export successful");

    // On a phone: cards, the same menu.
    await seller.setViewportSize(PHONE_VIEWPORT);
    await seller
      .getByRole("region", { name: "Member list" })
      .getByRole("listitem")
      .filter({ hasText: ADA })
      .waitFor();
    await actionsOf(seller, ADA).click();
    await seller.getByRole("menuitem", { name: "Refund last payment" }).waitFor();
    await seller.keyboard.press("Escape");
  });
});
