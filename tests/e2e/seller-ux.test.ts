import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "../../src/contracts/auth";
import { STORE_FALLBACK_NAME } from "../../src/contracts/products";
import { STORE_SETTINGS_MESSAGES } from "../../src/contracts/store-settings";
import { ERROR_LOG_KEY } from "../../src/web/lib/error-log";
import { accessibilityFindings, describeFindings, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { buyProduct, publishProduct, readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

const DESKTOP = { width: 1280, height: 800 };
/** For what waits on the server: two cores shared with other runs can make an answer take seconds. */
const SLOW = { timeout: 10_000 };
const LONG_TITLE =
  "The Complete Watercolour Landscapes Masterclass: Skies, Mountains, Lakes and Forests, in Ten Lessons";
const LONG_EMAIL = "katherine.johnson.at.langley.research.centre.usa@example.com";
const TOP_PRICE = "99999.99";

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

async function newPage(viewport = PHONE_VIEWPORT): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl });
  contexts.push(context);
  return context.newPage();
}

/** Every axe finding that is moderate or worse (the goal: none), listed when it fails. */
async function expectNoAxeFindings(page: Page, name: string): Promise<void> {
  const findings = (await accessibilityFindings(page, name)).filter((finding) => finding.impact !== "minor");
  expect(findings, describeFindings(findings)).toEqual([]);
}

/**
 * The page fits its viewport and passes axe; then the same at the other size; a screenshot of each.
 * Open toasts are let go first: one caught fading out measures as faint text (toastContrast checks
 * them shown).
 */
async function checkBothSizes(page: Page, name: string): Promise<void> {
  const initial = page.viewportSize() ?? PHONE_VIEWPORT;
  await expect.poll(() => page.locator("[data-sonner-toast]").count(), { timeout: 15_000 }).toBe(0);
  for (const [size, viewport] of [
    ["phone", PHONE_VIEWPORT],
    ["desktop", DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectNoSidewaysOverflow(page, `${name} (${size})`);
    await expectNoAxeFindings(page, `${name} (${size})`);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    await screenshot(page, `seller-ux-${name}-${size}`);
  }
  await page.setViewportSize(initial);
}

/** Wholly inside the viewport, horizontally and vertically once scrolled to. */
async function expectInViewport(locator: Locator, label: string): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const viewport = locator.page().viewportSize();
  expect(box, `${label} is not rendered`).not.toBeNull();
  if (!box || !viewport) return;
  expect(box.x, `${label} starts left of the screen`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${label} ends right of the screen`).toBeLessThanOrEqual(viewport.width);
}

/** The text of what a field's aria-describedby points at. */
async function descriptionOf(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" ")
      .trim(),
  );
}

/** The field is marked invalid and its description (the message printed under it) says `message`. */
async function expectFieldError(field: Locator, message: string): Promise<void> {
  await expect.poll(() => field.getAttribute("aria-invalid"), SLOW).toBe("true");
  expect(await descriptionOf(field)).toContain(message);
  const errorId = (await field.getAttribute("aria-describedby"))?.split(" ")[0] ?? "";
  await expect.poll(() => field.page().locator(`[id="${errorId}"]`).isVisible(), SLOW).toBe(true);
}

async function expectToast(page: Page, title: string): Promise<Locator> {
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: title }).last();
  await toast.waitFor();
  return toast;
}

/** The contrast ratio of a toast's text on its background (WCAG's formula, from the computed colours). */
async function toastContrast(toast: Locator): Promise<number> {
  return toast.evaluate((element) => {
    const channels = (colour: string) => (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const luminance = (colour: string) => {
      const [r = 0, g = 0, b = 0] = channels(colour).map((value) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(element);
    const [light, dark] = [luminance(style.backgroundColor), luminance(style.color)].sort((a, b) => b - a);
    return ((light ?? 1) + 0.05) / ((dark ?? 0) + 0.05);
  });
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe("seller pages on a phone", () => {
  it("the dashboard fits 375 px with a 100-character title, a 60-character email and $99,999.99; every action stays on screen", async () => {
    expect(LONG_TITLE.length).toBe(100);
    expect(LONG_EMAIL.length).toBe(60);
    const page = await newPage(PHONE_VIEWPORT);
    const seller = await readySeller(page, server);
    const productId = await publishProduct(page, { title: LONG_TITLE, price: TOP_PRICE });
    await buyProduct(server, productId, LONG_EMAIL);
    // A store name at its 100-character limit, under the dashboard's title.
    const longStoreName = `${"Watercolour ".repeat(8)}Studio Collective`.slice(0, 100);
    await page.evaluate(async (storeName) => {
      const response = await fetch("/api/store-settings", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ storeName }),
      });
      if (!response.ok) throw new Error(`store settings answered ${response.status}`);
    }, longStoreName);
    await page.reload();

    const sales = page.getByRole("region", { name: "Customer Sales" });
    await sales.getByText(LONG_EMAIL).waitFor();
    const products = page.getByRole("region", { name: "Recent Products" });
    await products.getByText("$99,999.99").waitFor();
    await page.getByRole("group", { name: "Total Revenue" }).getByText("$99,999.99").waitFor();

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSidewaysOverflow(page, "dashboard");

    // The title is cut on screen and whole in its tooltip.
    const title = products.getByText(LONG_TITLE, { exact: true });
    expect(await title.getAttribute("title")).toBe(LONG_TITLE);
    expect(await title.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);

    const edit = products.getByRole("link", { name: `Edit ${LONG_TITLE}` });
    expect(await edit.getAttribute("href")).toBe(`/dashboard/products/${productId}/edit`);
    for (const [label, action] of [
      ["View", products.getByRole("link", { name: `View ${LONG_TITLE}` })],
      ["Edit", edit],
      ["Copy", products.getByRole("button", { name: `Copy link to ${LONG_TITLE}` })],
      ["Delete", products.getByRole("button", { name: `Delete ${LONG_TITLE}` })],
      ["⋮", sales.getByRole("button", { name: `Actions for the sale to ${LONG_EMAIL}` })],
    ] as const) {
      await expectInViewport(action, label);
    }
    await sales.getByRole("button", { name: `Actions for the sale to ${LONG_EMAIL}` }).click();
    await expectInViewport(page.getByRole("menuitem", { name: "Refund" }), "Refund");
    await expectNoAxeFindings(page, "dashboard with a sale's menu open");
    await page.screenshot({ path: "screenshots/seller-ux-dashboard-menu-phone.png" });
    await page.keyboard.press("Escape");
    await page.getByRole("menuitem", { name: "Refund" }).waitFor({ state: "detached" });

    // The store line links to the store as buyers see it.
    const store = page.getByTestId("your-store-name");
    expect(await store.textContent()).toBe(longStoreName);
    expect(await store.getAttribute("title")).toBe(longStoreName);
    expect(await store.getAttribute("href")).toBe(`/store/${seller.userId}`);
    await checkBothSizes(page, "dashboard");
  });

  it("onboarding puts Subscribe Now and Connect Stripe first, above the fold of an 812 px phone", async () => {
    const page = await newPage(PHONE_VIEWPORT);
    const actionTop = async (name: string, below: string) => {
      const action = page.getByRole("button", { name, exact: true });
      await action.waitFor();
      const top = (await action.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
      const marketing = (await page.getByText(below, { exact: true }).boundingBox())?.y ?? 0;
      return { top, marketing };
    };
    await readySeller(page, server, {
      atGate: async (gate) => {
        if (gate === "subscribe") {
          await page.getByRole("heading", { name: "Subscription Required" }).waitFor();
          const { top, marketing } = await actionTop("Subscribe Now", "What's included");
          expect(top).toBeLessThan(812);
          expect(top).toBeLessThan(marketing);
          await checkBothSizes(page, "gate-subscribe");
        } else {
          await page.goto("/dashboard");
          await page.getByRole("heading", { name: "Connect Your Stripe Account" }).waitFor();
          const { top, marketing } = await actionTop("Connect Stripe", "0% platform fee");
          expect(top).toBeLessThan(812);
          expect(top).toBeLessThan(marketing);
          await checkBothSizes(page, "gate-connect");
        }
      },
    });
  });
});

describe("store name", () => {
  it("is asked on the dashboard with a live preview, refused with the reason next to the field, then shown to buyers", async () => {
    const page = await newPage(DESKTOP);
    const seller = await readySeller(page, server);
    // Before the store has a name, buyers see the spec's fallback.
    const productId = await publishProduct(page, { title: "Skies in Twelve Lessons", price: "12.00" });
    const buyer = await newPage(PHONE_VIEWPORT);
    await buyer.goto(`/product/${productId}`);
    await buyer.getByRole("heading", { name: "Skies in Twelve Lessons" }).waitFor();
    expect(await buyer.getByText(STORE_FALLBACK_NAME, { exact: true }).count()).toBeGreaterThan(0);

    const card = page.getByRole("region", { name: "Name your store" });
    const field = card.getByLabel("Store Name");
    // Suggested from the seller's name (the email's local part, seller-<time>-<n>), not "Digital Store".
    expect(await field.inputValue()).toBe("Seller's Store");
    await expect.poll(() => card.getByTestId("preview-sold-by").textContent(), SLOW).toBe("Seller's Store");
    await expect
      .poll(() => page.getByTestId("your-store-name").textContent(), SLOW)
      .toBe(STORE_FALLBACK_NAME);

    await field.fill("   ");
    await expect
      .poll(() => card.getByTestId("preview-sold-by").textContent(), SLOW)
      .toBe(STORE_FALLBACK_NAME);
    await card.getByRole("button", { name: "Save store name" }).click();
    await expectFieldError(field, STORE_SETTINGS_MESSAGES.nameRequired);
    await expectToast(page, STORE_SETTINGS_MESSAGES.updateFailedTitle);

    await field.fill("x".repeat(101));
    await card.getByRole("button", { name: "Save store name" }).click();
    await expectFieldError(field, STORE_SETTINGS_MESSAGES.nameTooLong);

    const name = "Ada's Watercolours";
    await field.fill(name);
    await expect.poll(() => card.getByTestId("preview-sold-by").textContent(), SLOW).toBe(name);
    await expect.poll(() => card.getByTestId("preview-store-header").textContent(), SLOW).toBe(name);
    await checkBothSizes(page, "name-your-store");
    await card.getByRole("button", { name: "Save store name" }).click();
    expect(
      await toastContrast(await expectToast(page, STORE_SETTINGS_MESSAGES.updatedTitle)),
    ).toBeGreaterThanOrEqual(4.5);
    await card.waitFor({ state: "detached" });
    await expect.poll(() => page.getByTestId("your-store-name").textContent(), SLOW).toBe(name);

    // Saved alone: the settings page has it, the rest left empty.
    await page.goto("/settings");
    expect(await page.getByLabel("Store Name").inputValue()).toBe(name);

    // The buyer's page now says who sells it.
    await buyer.reload();
    await buyer.getByRole("heading", { name: "Skies in Twelve Lessons" }).waitFor();
    await buyer.getByText("Sold by").first().waitFor();
    expect(await buyer.getByText(name, { exact: true }).count()).toBeGreaterThan(0);
    expect(await buyer.getByText(STORE_FALLBACK_NAME, { exact: true }).count()).toBe(0);
    await screenshot(buyer, "seller-ux-buyer-sees-store-name-phone");
    await buyer.goto(`/store/${seller.userId}`);
    await buyer.getByRole("heading", { name, level: 1 }).waitFor();
  });
});

describe("errors next to their fields", () => {
  it("sign-up, login and forgot password show each message under its field, as well as the toast", async () => {
    const page = await newPage(PHONE_VIEWPORT);
    await page.goto("/auth");
    const email = page.getByLabel("Email");
    const password = page.getByLabel("Password", { exact: true });
    await email.fill("not-an-email");
    await password.fill("123");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, AUTH_MESSAGES.validationErrorTitle);
    await expectFieldError(email, AUTH_MESSAGES.invalidEmail);
    await expectFieldError(password, AUTH_MESSAGES.shortPassword);
    await checkBothSizes(page, "auth-errors");

    // An email that is taken: the message is the email's.
    const taken = `taken-${Date.now()}@example.com`;
    const signedUp = await page.evaluate(
      async (email) =>
        (
          await fetch("/api/auth/sign-up/email", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email, password: "correct-horse-42", name: "taken" }),
            credentials: "omit",
          })
        ).status,
      taken,
    );
    expect(signedUp).toBe(200);
    await email.fill(taken);
    await password.fill("correct-horse-42");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, AUTH_MESSAGES.accountExistsTitle);
    await expectFieldError(email, AUTH_MESSAGES.accountExists);
    expect(await password.getAttribute("aria-invalid")).toBeNull();

    // A wrong password at login: under the password.
    await page.getByRole("tab", { name: "Login" }).click();
    const loginEmail = page.getByRole("tabpanel").getByLabel("Email");
    const loginPassword = page.getByRole("tabpanel").getByLabel("Password", { exact: true });
    await loginEmail.fill(taken);
    await loginPassword.fill("wrong-password-1");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectToast(page, AUTH_MESSAGES.signInFailed);
    await expectFieldError(loginPassword, "Invalid email or password");

    await page.getByRole("button", { name: "Forgot your password?" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset your password" });
    await dialog.getByLabel("Email").fill("nope");
    await dialog.getByRole("button", { name: "Send Reset Link" }).click();
    await expectFieldError(dialog.getByLabel("Email"), AUTH_MESSAGES.invalidEmail);
    await screenshot(page, "seller-ux-forgot-error-phone");
  });

  it("store settings and the password dialog show the refusal under the field; toasts never cover the header's buttons", async () => {
    const page = await newPage(PHONE_VIEWPORT);
    await readySeller(page, server);
    await page.goto("/settings");
    const tagline = page.getByLabel("Tagline");
    await tagline.fill("t".repeat(201));
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const toast = await expectToast(page, STORE_SETTINGS_MESSAGES.updateFailedTitle);
    expect(await toastContrast(toast)).toBeGreaterThanOrEqual(4.5);
    await expectFieldError(tagline, STORE_SETTINGS_MESSAGES.taglineTooLong);
    // The counter stays described too.
    expect(await descriptionOf(tagline)).toContain("201/200");

    for (const viewport of [PHONE_VIEWPORT, DESKTOP]) {
      await page.setViewportSize(viewport);
      const logout = await page.getByRole("button", { name: "Logout" }).boundingBox();
      const toastBox = await toast.boundingBox();
      expect(
        logout && toastBox && !overlaps(logout, toastBox),
        `toast covers Logout at ${viewport.width}px`,
      ).toBe(true);
    }
    await page.setViewportSize(PHONE_VIEWPORT);
    await checkBothSizes(page, "settings-errors");

    await page.getByRole("button", { name: "Turn on two-factor" }).click();
    const dialog = page.getByRole("dialog", { name: "Turn on two-factor authentication" });
    await dialog.getByLabel("Password", { exact: true }).fill("not-my-password");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expectFieldError(dialog.getByLabel("Password", { exact: true }), "Invalid password");
    await screenshot(page, "seller-ux-password-dialog-error-phone");
  });
});

describe("reset password with a bad link", () => {
  it("disables the form and offers to request a new link", async () => {
    const page = await newPage(PHONE_VIEWPORT);
    for (const url of ["/auth?reset=true&error=INVALID_TOKEN", "/auth?reset=true"]) {
      await page.goto(url);
      await page.getByText("This reset link is invalid or has expired.", { exact: false }).waitFor();
      expect(await page.getByLabel("New Password").isDisabled()).toBe(true);
      expect(await page.getByLabel("Confirm Password").isDisabled()).toBe(true);
      expect(await page.getByRole("button", { name: "Update Password" }).count()).toBe(0);
    }
    await checkBothSizes(page, "reset-invalid-link");
    await page.getByRole("button", { name: "Request a new link" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset your password" });
    await dialog.getByLabel("Email").fill("someone@example.com");
    await dialog.getByRole("button", { name: "Send Reset Link" }).click();
    await expectToast(page, AUTH_MESSAGES.checkEmailTitle);
  });
});

describe("scroll position on navigation", () => {
  const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
  const scrollToBottom = (page: Page) =>
    page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: "instant" }));

  it("a new page opens at the top, in the app or as a document; back restores where the reader was", async () => {
    const page = await newPage(DESKTOP);
    await page.goto("/privacy");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await scrollToBottom(page);
    const readTo = await scrollY(page);
    expect(readTo).toBeGreaterThan(1000);

    // In the app: no smooth scroll from the old position either, the page opens at the top at once.
    await page.getByRole("contentinfo").getByRole("link", { name: "Terms of Service" }).click();
    await page.waitForURL("**/terms");
    await page.getByRole("heading", { name: "Terms of Service", level: 1 }).waitFor();
    expect(await scrollY(page)).toBe(0);
    await page.waitForTimeout(500);
    expect(await scrollY(page)).toBe(0);

    await page.goBack();
    await page.waitForURL("**/privacy");
    await expect.poll(() => scrollY(page), SLOW).toBe(readTo);

    // A scrolled page, then a page the server renders, then /terms loaded as a document: the saved
    // position of the first document must not be applied to the new one.
    await page.goto("/");
    await scrollToBottom(page);
    await page.getByRole("contentinfo").getByRole("link", { name: "Terms of Service" }).click();
    await page.waitForURL("**/terms");
    await page.getByRole("heading", { name: "Terms of Service", level: 1 }).waitFor();
    await page.waitForTimeout(500);
    expect(await scrollY(page)).toBe(0);
  });
});

describe("status pages", () => {
  it("/status and /system-status fit a phone and pass axe, with a long unbroken error in the log", async () => {
    const page = await newPage(PHONE_VIEWPORT);
    await page.goto("/status");
    await page.getByText("All systems operational").waitFor();
    await checkBothSizes(page, "status");

    const message = `TypeError: ${"cannotReadPropertiesOfUndefined".repeat(6)}`;
    await page.evaluate(
      ({ key, message }) =>
        localStorage.setItem(
          key,
          JSON.stringify([
            {
              type: "error",
              message,
              timestamp: new Date().toISOString(),
              url: `${location.origin}/dashboard?${"query=averyveryverylongvalue&".repeat(8)}`,
              userAgent: navigator.userAgent,
            },
          ]),
        ),
      { key: ERROR_LOG_KEY, message },
    );
    await page.goto("/system-status");
    await page.getByRole("heading", { name: "System Monitor" }).waitFor();
    await page.getByText(message).waitFor();
    await checkBothSizes(page, "system-status");
  });
});
