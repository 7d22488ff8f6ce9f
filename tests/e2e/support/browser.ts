import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";

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
