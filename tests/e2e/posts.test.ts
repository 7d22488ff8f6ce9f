import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST_LIMITS, POST_MESSAGES } from "../../src/contracts/posts";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT } from "./support/browser";
import { createMembershipProduct, expectToast, openEmail, subscribeAndPay } from "./support/memberships";
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
const MEMBER = `member-${Date.now()}@example.com`;
const POST_TITLE = "April studio notes";
/** The longest title the limits allow, without a space: the worst case for wrapping. */
const LONG_TITLE = "Supercalifragilistic_".repeat(10).slice(0, POST_LIMITS.titleMax);
const POST_BODY = [
  "## What's new",
  "Hello **members**, this month is *busy*. <script>alert(1)</script>",
  "",
  "- New brushes in [the shop](https://example.com/shop)",
  "- A live session on Friday",
].join("\n");

const newContext = (viewport = DESKTOP): Promise<BrowserContext> =>
  browser.newContext({ viewport, baseURL: server.baseUrl });

/** Full-page screenshots to look at, next to the other journeys' in /tmp. */
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `/tmp/posts-${name}.png`, fullPage: true });

/** A page at both widths: no serious axe finding, nothing wider than the screen, a screenshot of each. */
async function checkLayout(page: Page, name: string) {
  for (const [label, viewport] of [
    ["1280", DESKTOP],
    ["375", PHONE_VIEWPORT],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectAccessible(page, `${name} (${label})`);
    await expectNoSidewaysOverflow(page, `${name} (${label})`);
    await shot(page, `${name}-${label}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** Two tiers: Fan gets the first file, Patron both (and a yearly price). */
const createMembership = (page: Page) =>
  createMembershipProduct(page, {
    title: "The Lettering Club",
    fileNames: ["basics.pdf", "bonus-brushes.pdf"],
    tiers: [
      { name: "Fan", monthlyPrice: "5", fileIndexes: [0] },
      { name: "Patron", monthlyPrice: "15", yearlyPrice: "150", fileIndexes: [0, 1] },
    ],
  });

const subscribe = (productId: string, tierId: string, email: string, interval: "month" | "year" = "month") =>
  subscribeAndPay(server.baseUrl, productId, tierId, email, interval);

describe("posts to members", () => {
  it("a seller writes a post for chosen tiers; the member reads it in their library, gets it by email, and can turn post emails off", async () => {
    const seller = await (await newContext()).newPage();
    await readySeller(seller, server);
    const product = await createMembership(seller);
    await subscribe(product.id, product.tiers[1]!.id, MEMBER);

    // The composer: title, body with its help and preview, tiers, attachments.
    await seller.goto("/dashboard/posts");
    await seller.getByRole("heading", { name: "Posts", exact: true }).waitFor();
    await seller.getByText("No posts yet").waitFor();
    await seller.getByRole("button", { name: "New post" }).click();
    await seller.getByLabel("Title").fill(POST_TITLE);
    await seller.getByLabel("Post", { exact: true }).fill(POST_BODY);
    await seller.getByRole("checkbox", { name: "bonus-brushes.pdf" }).check();
    await checkLayout(seller, "composer");
    await seller.getByRole("tab", { name: "Preview" }).click();
    const preview = seller.getByRole("tabpanel");
    await preview.locator("strong", { hasText: "members" }).waitFor();
    expect(await preview.locator("script").count()).toBe(0);
    await expect(preview.getByText("<script>alert(1)</script>", { exact: false }).count()).resolves.toBe(1);
    await checkLayout(seller, "composer-preview");

    // Refused without a tier, at the field.
    await seller.getByRole("checkbox", { name: "Fan" }).uncheck();
    await seller.getByRole("checkbox", { name: "Patron" }).uncheck();
    await seller.getByRole("button", { name: "Publish" }).click();
    await seller.getByText(POST_MESSAGES.tiersMissing).waitFor();
    await seller.getByRole("checkbox", { name: "Patron" }).check();
    await seller.getByRole("button", { name: "Publish" }).click();
    await expectToast(seller, POST_MESSAGES.published);
    await seller.getByText(POST_TITLE).waitFor();
    await seller.getByText("Patron · emailed to 1 member · 1 file").waitFor();

    // The longest title, with a body of every kind of markup.
    await seller.getByRole("button", { name: "New post" }).click();
    await seller.getByLabel("Title").fill(LONG_TITLE);
    await seller
      .getByLabel("Post", { exact: true })
      .fill(`1. First\n2. Second\n\nhttps://example.com/${"a-very-long-path-".repeat(12)}`);
    await seller.getByRole("button", { name: "Publish" }).click();
    await expectToast(seller, POST_MESSAGES.published);

    // A draft, then deleted with confirmation.
    await seller.getByRole("button", { name: "New post" }).click();
    await seller.getByLabel("Title").fill("Half-written idea");
    await seller.getByLabel("Post", { exact: true }).fill("Later.");
    await seller.getByRole("button", { name: "Save draft" }).click();
    await expectToast(seller, POST_MESSAGES.draftSaved);
    await seller.getByText("Draft", { exact: true }).waitFor();
    await checkLayout(seller, "list");
    await seller.getByRole("button", { name: "Delete Half-written idea" }).click();
    await seller.getByRole("alertdialog", { name: "Delete Half-written idea?" }).waitFor();
    await checkLayout(seller, "delete-dialog");
    await seller.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expectToast(seller, POST_MESSAGES.deleted);
    await seller.getByText("Half-written idea").waitFor({ state: "detached" });

    // The member's email, then their library from the welcome email.
    const member = await (await newContext()).newPage();
    await openEmail(member, `The Lettering Club: ${LONG_TITLE}`, MEMBER);
    await shot(member, "email-long");
    await openEmail(member, `The Lettering Club: ${POST_TITLE}`, MEMBER);
    await shot(member, "email");
    await openEmail(member, "Welcome to The Lettering Club", MEMBER);
    const libraryHref = await member.locator('a[href*="/library?token="]').first().getAttribute("href");
    await member.goto(libraryHref!);
    await member.getByRole("heading", { name: "Memberships" }).waitFor();
    const card = member.getByRole("article", { name: "The Lettering Club" });
    await card.getByText("Renews on").waitFor();
    await card.getByText("$15.00 / month").waitFor();
    const post = card.getByRole("article", { name: POST_TITLE });
    await post.locator("strong", { hasText: "members" }).waitFor();
    await post.getByRole("link", { name: "the shop" }).waitFor();
    await post.getByRole("button", { name: "Download bonus-brushes.pdf" }).waitFor();
    expect(await post.getByText("<script>alert(1)</script>", { exact: false }).count()).toBe(1);
    await checkLayout(member, "library");

    // Email me new posts: off, kept after a reload.
    const emails = card.getByRole("switch", { name: "Email me new posts" });
    expect(await emails.isChecked()).toBe(true);
    await card.getByText("Email me new posts").click();
    await expectToast(member, POST_MESSAGES.postEmailsOff);
    await member.reload();
    await member.getByRole("heading", { name: "Memberships" }).waitFor();
    expect(await member.getByRole("switch", { name: "Email me new posts" }).isChecked()).toBe(false);

    // Manage membership opens Stripe's billing portal (the emulator's, on its own port).
    await member.getByRole("button", { name: "Manage membership" }).click();
    await member.waitForURL((url) => !url.href.startsWith(server.baseUrl));
    await shot(member, "portal");
  });
});
