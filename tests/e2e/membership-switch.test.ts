import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBERSHIP_CHANGE_MESSAGES } from "../../src/contracts/memberships";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT } from "./support/browser";
import { createMembershipProduct, expectToast, openEmail, subscribeAndPay } from "./support/memberships";
import { fromPage, readySeller } from "./support/seller";
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
const MEMBER = `switcher-${stamp}@example.com`;
const TRIALIST = `trialist-${stamp}@example.com`;
const LEAVER = `leaver-${stamp}@example.com`;

const newContext = (viewport = DESKTOP): Promise<BrowserContext> =>
  browser.newContext({ viewport, baseURL: server.baseUrl });

/** Full-page screenshots to look at, in screenshots/ (git-ignored). */
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `screenshots/membership-switch-${name}.png`, fullPage: true });

/**
 * A page at both widths: no serious axe finding, nothing wider than the screen, a screenshot of each. An
 * open dialog (fixed, so the page's overflow check skips it) must fit the screen and scroll nothing sideways.
 */
async function checkLayout(page: Page, name: string, dialog?: Locator) {
  for (const [label, viewport] of [
    ["1280", DESKTOP],
    ["375", PHONE_VIEWPORT],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `${name} (${label})`);
    await expectNoSidewaysOverflow(page, `${name} (${label})`);
    if (dialog) {
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
    await shot(page, `${name}-${label}`);
  }
  await page.setViewportSize(DESKTOP);
}

type Product = { id: string; tiers: Array<{ id: string; name: string }> };

type MemberRow = { id: string; email: string; status: string };

async function memberOf(seller: Page, email: string): Promise<MemberRow | undefined> {
  const page = (await fromPage(seller, "GET", `/api/memberships?q=${encodeURIComponent(email)}`)) as {
    members: MemberRow[];
  };
  return page.members.find((member) => member.email === email);
}

const subscribe = (productId: string, tierId: string, email: string, interval: "month" | "year" = "month") =>
  subscribeAndPay(server.baseUrl, productId, tierId, email, interval);

/** Three tiers of one file, one with a yearly price and one with a trial. */
const createMembership = (page: Page): Promise<Product> =>
  createMembershipProduct(page, {
    title: "The Lettering Club",
    fileNames: ["basics.pdf"],
    tiers: [
      { name: "Fan", monthlyPrice: "5", yearlyPrice: "50", fileIndexes: [0] },
      { name: "Patron", monthlyPrice: "15", fileIndexes: [0] },
      { name: "Studio", monthlyPrice: "30", trialDays: 7, fileIndexes: [0] },
    ],
  });

describe("switching tier from the library, and memberships on the seller's pages", () => {
  it("a member previews a switch, confirms it; the seller sees members in analytics and periods in sales", async () => {
    const sellerContext = await newContext();
    const seller = await sellerContext.newPage();
    await readySeller(seller, server);
    const product = await createMembership(seller);
    const [fan, patron, studio] = product.tiers;
    await subscribe(product.id, fan!.id, MEMBER);
    await subscribe(product.id, studio!.id, TRIALIST);
    await subscribe(product.id, fan!.id, LEAVER);
    await expect
      .poll(async () => (await memberOf(seller, LEAVER))?.status, { timeout: 15_000 })
      .toBe("active");
    await fromPage(seller, "POST", `/api/memberships/${(await memberOf(seller, LEAVER))!.id}/cancel`, {
      when: "now",
    });

    // The member's library, from the welcome email.
    const member = await (await newContext()).newPage();
    await openEmail(member, "Welcome to The Lettering Club", MEMBER);
    const href = (await member.locator('a[href*="/library?token="]').first().getAttribute("href"))!;
    const token = new URL(href, server.baseUrl).searchParams.get("token");
    await member.goto(href);
    const card = member.getByRole("article", { name: "The Lettering Club" });
    await card.getByText("$5.00 / month").waitFor();

    // The dialog opens on their own tier; asking for it again says so without a request.
    await card.getByRole("button", { name: "Switch tier" }).click();
    const dialog = member.getByRole("dialog", { name: "Switch tier" });
    const fanRadio = dialog.getByRole("radio", { name: /^Fan/ });
    expect(await fanRadio.isChecked()).toBe(true);
    expect(await fanRadio.evaluate((element) => element === document.activeElement)).toBe(true);
    await dialog.getByText("Your tier").waitFor();
    await dialog.getByText("$50.00 / year · Save 16%").waitFor();
    await dialog.getByRole("button", { name: "Preview" }).click();
    await dialog.getByText(MEMBERSHIP_CHANGE_MESSAGES.sameChoice).waitFor();
    await checkLayout(member, "choose", dialog);

    // The keyboard moves to Patron (no yearly price: no Monthly/Yearly), then Preview.
    // Held like a key is until focus arrives: Radix moves focus in a timeout after keydown and
    // checks the radio it lands on only while the key is still down, so a fixed hold is a race
    // on a busy machine.
    await fanRadio.focus();
    const patronRadio = dialog.getByRole("radio", { name: /^Patron/ });
    await member.keyboard.down("ArrowDown");
    await expect.poll(() => patronRadio.evaluate((element) => element === document.activeElement)).toBe(true);
    await member.keyboard.up("ArrowDown");
    await expect.poll(() => patronRadio.isChecked()).toBe(true);
    expect(await dialog.getByRole("radio", { name: /Yearly/ }).count()).toBe(0);
    const previewRequest = member.waitForRequest((request) => request.url().endsWith("/change-preview"));
    await dialog.getByRole("button", { name: "Preview" }).click();
    expect(JSON.parse((await previewRequest).postData() ?? "")).toEqual({
      token,
      tierId: patron!.id,
      interval: "month",
    });
    const summary = dialog.getByTestId("change-preview");
    await summary.getByText(/^You'll be charged \$\d+\.\d\d now\.$/).waitFor();
    await summary.getByText("Then $15.00 per month.").waitFor();
    expect(await summary.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await summary.getByRole("listitem").count()).toBeGreaterThanOrEqual(2);
    await checkLayout(member, "preview", dialog);

    const confirmRequest = member.waitForRequest((request) => request.url().endsWith("/change"));
    await dialog.getByRole("button", { name: /^Confirm and pay \$/ }).click();
    const confirmed = JSON.parse((await confirmRequest).postData() ?? "");
    expect(confirmed).toMatchObject({ token, tierId: patron!.id, interval: "month" });
    expect(confirmed.prorationDate).toEqual(expect.any(Number));
    await expectToast(member, MEMBERSHIP_CHANGE_MESSAGES.changed);
    await dialog.waitFor({ state: "hidden" });
    await card.getByText("$15.00 / month").waitFor();
    await card.getByText("Patron").waitFor();
    await shot(member, "switched-1280");

    // The seller's analytics: MRR of the one paying member (Patron), the trial beside it, the leaver.
    await seller.goto("/dashboard/analytics");
    const memberships = seller.getByRole("region", { name: "Memberships" });
    await memberships.waitFor();
    await expect
      .poll(async () => {
        await seller.reload();
        await memberships.waitFor();
        return memberships.getByRole("group", { name: "MRR" }).textContent();
      })
      .toContain("$15.00");
    const paying = await memberships.getByRole("group", { name: "Paying members" }).textContent();
    expect(paying).toContain("+ 1 on trial");
    expect(await memberships.getByRole("group", { name: "New members" }).textContent()).toContain("3");
    expect(await memberships.getByRole("group", { name: "Churned" }).textContent()).toContain("1");
    await checkLayout(seller, "analytics");

    // The sales table: each membership sale names its period, on a phone too.
    await seller.goto("/dashboard");
    await seller
      .getByText(/^Membership period \w{3} \d\d – \w{3} \d\d, \d{4}$/)
      .first()
      .waitFor();
    await checkLayout(seller, "sales");
    await seller.setViewportSize(PHONE_VIEWPORT);
    await seller
      .getByText(/^Membership period /)
      .first()
      .waitFor();
    await sellerContext.close();
  });
});
