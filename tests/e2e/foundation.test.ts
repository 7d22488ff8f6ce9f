import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
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

let counter = 0;
const newEmail = () => `e2e-${Date.now()}-${++counter}@example.com`;

async function openPage(path: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl });
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

async function signUpThroughForm(page: Page, email: string, password: string) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

describe("public pages", () => {
  it("landing: headline, pricing, and an FAQ that opens one item at a time", async () => {
    const page = await openPage("/");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toContain(
      "Sell unlimited digital products for $10/mo",
    );
    await expect(page.getByRole("button", { name: "Notify me" }).isDisabled()).resolves.toBe(true);

    // <details name="faq">: the browser keeps one open, no script.
    const items = page.locator("#faq details");
    const isOpen = (index: number) => items.nth(index).evaluate((item) => (item as HTMLDetailsElement).open);
    expect(await items.count()).toBe(7);
    await items.nth(0).locator("summary").click();
    await expect.poll(() => isOpen(0)).toBe(true);
    await items.nth(1).locator("summary").click();
    await expect.poll(() => isOpen(1)).toBe(true);
    expect(await isOpen(0)).toBe(false);
    await items.nth(1).locator("summary").click();
    await expect.poll(() => isOpen(1)).toBe(false);
    await screenshot(page, "landing-desktop");
    await page.context().close();
  });

  it("landing on a phone: the menu opens without JavaScript and leads to each section and to Login", async () => {
    const context = await browser.newContext({
      viewport: PHONE_VIEWPORT,
      baseURL: server.baseUrl,
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto("/");
    const menuButton = page.locator("header summary").filter({ hasText: "Open menu" });
    await expect(menuButton.isVisible()).resolves.toBe(true);
    // The desktop links are hidden at this width; the menu's own are hidden until it opens.
    const menu = page.getByRole("navigation", { name: "Main menu" });
    await expect(menu.isVisible()).resolves.toBe(false);
    await menuButton.click();
    await expect(menu.isVisible()).resolves.toBe(true);
    for (const name of ["Features", "Pricing", "FAQ"]) {
      await expect(menu.getByRole("link", { name }).isVisible(), name).resolves.toBe(true);
    }
    await expect(page.getByRole("link", { name: "Login" }).isVisible()).resolves.toBe(true);
    // The open menu lies over the page, inside the viewport.
    const box = await menu.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE_VIEWPORT.width).toBe(true);
    await screenshot(page, "landing-phone-menu-open");
    await menu.getByRole("link", { name: "Pricing" }).click();
    await page.waitForURL(/#pricing$/);
    // The pricing section is scrolled into view (smoothly: polled).
    const pricingTop = () =>
      page.locator("#pricing").evaluate((section) => section.getBoundingClientRect().top);
    await expect.poll(pricingTop).toBeLessThan(PHONE_VIEWPORT.height / 2);
    await context.close();
  });

  it("landing, legal and status pages render on a phone", async () => {
    for (const [path, name] of [
      ["/", "landing"],
      ["/terms", "terms"],
      ["/privacy", "privacy"],
      ["/status", "status"],
      ["/auth", "auth"],
    ] as const) {
      const page = await openPage(path, PHONE_VIEWPORT);
      await page.waitForLoadState("networkidle");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways on a phone`).toBeLessThanOrEqual(0);
      await screenshot(page, `${name}-phone`);
      await page.context().close();
    }
  });

  it("terms has 10 sections and privacy 11", async () => {
    const terms = await openPage("/terms");
    await terms.locator("main h2").first().waitFor();
    expect(await terms.locator("main h2").count()).toBe(10);
    const privacy = await openPage("/privacy");
    await privacy.locator("main h2").first().waitFor();
    expect(await privacy.locator("main h2").count()).toBe(11);
    await terms.context().close();
    await privacy.context().close();
  });

  it("status shows the four services from the real health check", async () => {
    const page = await openPage("/status");
    for (const service of ["API", "File Upload", "Payment Processing", "Email Delivery"]) {
      await page.getByText(service, { exact: true }).waitFor();
    }
    await expect.poll(() => page.getByText("Operational").count()).toBeGreaterThanOrEqual(4);
    await page.context().close();
  });

  it("any other path shows the 404 page with a way home", async () => {
    const page = await openPage("/no/such/page");
    await page.getByText("Oops! Page not found").waitFor();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.context().close();
  });

  it("/system-status shows an error after one is raised", async () => {
    const page = await openPage("/terms");
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error("e2e boom from the terms page");
      });
    });
    await page.getByText("Error Detected").first().waitFor();
    await page.goto("/system-status");
    await page.getByText("e2e boom from the terms page").waitFor();
    await page.getByRole("button", { name: "Clear All Errors" }).click();
    await expect.poll(() => page.getByText("e2e boom from the terms page").count()).toBe(0);
    await page.context().close();
  });
});

describe("accounts", () => {
  it("sign up lands on /dashboard; the header then offers Dashboard and Logout; Logout returns to /", async () => {
    const page = await openPage("/");
    await signUpThroughForm(page, newEmail(), "correct-horse-42");
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await page.goto("/");
    await page.getByRole("link", { name: "Dashboard" }).first().waitFor();
    await page.getByRole("button", { name: "Logout" }).first().click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByRole("link", { name: "Login" }).first().waitFor();
    await page.goto("/dashboard");
    await page.waitForURL(`${server.baseUrl}/auth`);
    await page.context().close();
  });

  it("bad input gets the spec's toast and creates nothing", async () => {
    const page = await openPage("/auth");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password", { exact: true }).fill("correct-horse-42");
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.getByText("Validation Error").waitFor();
    // In the toast, and under the field too.
    await page.locator("[data-sonner-toast]").getByText("Please enter a valid email").waitFor();
    await page.locator("form").getByText("Please enter a valid email").waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/auth`);

    await page.getByLabel("Email").fill(newEmail());
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.getByText("Weak password detected").waitFor();
    await screenshot(page, "auth-weak-password");
    await page.context().close();
  });

  it("resets a forgotten password with the link from /dev/mailbox", async () => {
    const email = newEmail();
    const page = await openPage("/");
    await signUpThroughForm(page, email, "correct-horse-42");
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await page.context().clearCookies();

    await page.goto("/auth");
    await page.getByRole("tab", { name: "Login" }).click();
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await page.getByRole("dialog").getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await page.getByText("Check your email").waitFor();

    await page.goto("/dev/mailbox");
    await page.getByText(`To ${email}`).click();
    await page.getByRole("link", { name: "Choose a new password" }).click();
    await page.waitForURL(/\/auth\?reset=true&token=/);
    await page.getByLabel("New Password").fill("brand-new-secret-7");
    await page.getByLabel("Confirm Password").fill("brand-new-secret-7");
    await page.getByRole("button", { name: "Update Password" }).click();
    await page.getByText("Password updated!").waitFor();

    await page.context().clearCookies();
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Login" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("brand-new-secret-7");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    await page.context().close();
  });
});
