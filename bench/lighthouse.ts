/**
 * Lighthouse on the buyer pages (run by hand: `npx tsx bench/lighthouse.ts`; `--runs 5` for more runs,
 * `--lang ja` for the buyer pages in another language, `--currency eur` for the product page priced in
 * euros with its currency switcher).
 *
 * Brings the build up to date first (the pages inline the built stylesheet and load the built script),
 * starts the real app on a port with a store of 6 products with real covers, and runs Lighthouse's
 * default configuration (mobile form factor, simulated slow 4G and 4x CPU slowdown) with headless
 * Chromium on a product page, the storefront and the landing page, `runs` times each (3 by default: a
 * shared machine is noisy). Reports the median of each score and of LCP per page, and what kept a
 * category under 100 in any run.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, chromiumExecutable } from "../tests/e2e/support/browser";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const CHROMIUM_FLAGS = ["--headless=new", ...CHROMIUM_ARGS];
const args = process.argv.slice(2);
const runsIndex = args.indexOf("--runs");
const runs = runsIndex === -1 ? 3 : Number(args[runsIndex + 1]);
// `--lang de`: the buyer pages in that language (docs/i18n.md), as the switcher's link asks for them.
const langIndex = args.indexOf("--lang");
const currencyIndex = args.indexOf("--currency");
const currency = currencyIndex === -1 ? undefined : (args[currencyIndex + 1] ?? "eur").toLowerCase();
const langQuery = `?${new URLSearchParams({
  ...(langIndex === -1 ? {} : { lang: args[langIndex + 1] ?? "en" }),
  ...(currency ? { currency } : {}),
})}`.replace(/\?$/, "");

execFileSync(process.execPath, ["scripts/build-if-stale.mjs"], { stdio: "inherit" });
delete process.env.TEST_DATABASE_URL;
const { createTestApp } = await import("../tests/api/support/test-app");
const { seedPublicStore } = await import("./public-store");
const t = await createTestApp({ listen: true, webDistDir: path.resolve("dist/web") });
t.app.server.log.level = "silent";
const { sellerId, productIds } = await seedPublicStore(t, 6, { memberships: 1 });
// `--currency eur`: the one-time product also has a fixed price there (docs/money.md), 92% of its own.
if (currency) {
  const product = await t.db
    .selectFrom("products")
    .select(["id", "user_id", "price_cents"])
    .where("id", "=", productIds[0]!)
    .executeTakeFirstOrThrow();
  await t.db
    .insertInto("product_prices")
    .values({
      product_id: product.id,
      seller_id: product.user_id,
      currency,
      amount_cents: Math.max(100, product.price_cents - Math.floor(product.price_cents / 12)),
    })
    .execute();
}
const pages = [
  // Newest first: the last made is a one-time product, the first a membership.
  ["product page", `/product/${productIds[0]}${langQuery}`],
  ["membership page", `/product/${productIds.at(-1)}${langQuery}`],
  ["storefront", `/store/${sellerId}${langQuery}`],
  ["landing page", "/"],
] as const;

interface RunResult {
  /** NaN for a category this run could not measure. */
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcpMs: number;
  /** Audits under a full score that count towards a category, e.g. "color-contrast (accessibility)". */
  failing: string[];
  /** Why performance could not be measured, if it could not. */
  performanceError?: string;
}

async function lighthouseRun(url: string, port: number, categories: readonly string[]) {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...categories],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  return result.lhr;
}

/**
 * One Lighthouse run of all four categories. When the page cannot be traced (this machine's Chromium
 * build aborts traced loads: FAILED_DOCUMENT_REQUEST), the other three are measured without performance.
 */
async function audit(url: string, port: number): Promise<RunResult> {
  let lhr = await lighthouseRun(url, port, CATEGORIES);
  let performanceError: string | undefined;
  if (lhr.runtimeError) {
    performanceError = lhr.runtimeError.code;
    lhr = await lighthouseRun(url, port, CATEGORIES.slice(1));
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => {
      const score = lhr.categories[id]?.score;
      return [id, score === null || score === undefined ? Number.NaN : Math.round(score * 100)];
    }),
  ) as RunResult["scores"];
  const failing = CATEGORIES.flatMap((id) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .filter((ref) => {
        const score = lhr.audits[ref.id]?.score;
        return score !== null && score !== undefined && score < 1;
      })
      .map((ref) => `${ref.id} (${id})`),
  );
  const lcpMs = lhr.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN;
  return { scores, lcpMs, failing, ...(performanceError ? { performanceError } : {}) };
}

/** The median of the runs that measured it (a run whose trace failed has no performance numbers). */
const median = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor(sorted.length / 2)] as number);
};

const chrome = await chromeLauncher.launch({
  chromePath: await chromiumExecutable(),
  chromeFlags: CHROMIUM_FLAGS,
});
try {
  console.log(`\nmedian of ${runs} runs, mobile, default throttling (${t.url})`);
  console.log(
    "\n| page | performance | accessibility | best practices | SEO | LCP s |\n|---|---|---|---|---|---|",
  );
  const problems: string[] = [];
  for (const [name, pagePath] of pages) {
    const results: RunResult[] = [];
    for (let run = 0; run < runs; run++) results.push(await audit(`${t.url}${pagePath}`, chrome.port));
    const scores = CATEGORIES.map((id) => median(results.map((r) => r.scores[id])));
    const lcp = median(results.map((r) => r.lcpMs)) / 1000;
    const lcpRuns = results
      .map((r) => (Number.isFinite(r.lcpMs) ? (r.lcpMs / 1000).toFixed(2) : "-"))
      .join(", ");
    console.log(`| ${name} | ${scores.join(" | ")} | ${lcp.toFixed(2)} (${lcpRuns}) |`);
    const failing = [
      ...new Set(results.flatMap((r) => r.failing)),
      ...new Set(
        results.flatMap((r) =>
          r.performanceError ? [`performance not measured: ${r.performanceError}`] : [],
        ),
      ),
    ];
    if (failing.length > 0) problems.push(`${name}: ${failing.join(", ")}`);
  }
  if (problems.length > 0) console.log(`\nbelow a full score in some run:\n${problems.join("\n")}`);
} finally {
  chrome.kill();
  await t.close();
}
