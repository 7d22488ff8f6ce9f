import { existsSync } from "node:fs";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium, else the Chromium shipped in @sparticuz/chromium. */
export async function chromiumExecutable(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  const { default: sparticuz } = await import("@sparticuz/chromium");
  return sparticuz.executablePath();
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumExecutable(), args: CHROMIUM_ARGS, headless: true });
}

export const PHONE_VIEWPORT = { width: 375, height: 812 };

/** Saves a screenshot under screenshots/ (git-ignored) so a person can look at the page. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `screenshots/${name}.png`, fullPage: true });
}

/**
 * Clicks an in-app link until the page is at `pathname`: on a busy machine a panel that is still laying
 * itself out (an image arriving) can move the link between Playwright's check and its click, and the
 * click then lands beside it.
 */
export async function followLink(page: Page, link: Locator, pathname: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (new URL(page.url()).pathname === pathname) return;
    await link.click({ timeout: 10_000 }).catch(() => {});
    try {
      await page.waitForURL((url) => url.pathname === pathname, { timeout: 10_000 });
      return;
    } catch {
      // Not there yet: click again if the link is still on the page.
    }
  }
  throw new Error(`never reached ${pathname} (at ${page.url()})`);
}
