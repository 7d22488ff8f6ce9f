/**
 * CI size check (.ci/run): the JavaScript the server-rendered public pages load before they are
 * interactive (their entry and its static imports, not lazy chunks), gzipped, must stay within the
 * budget, and so must the embed script (dist/web/embed.js) and the stylesheet every public page inlines,
 * each within its own. Reads the built files: run
 * after `npm run build`. Usage: tsx scripts/check-public-budget.ts [distDir]
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { EMBED_LIMITS } from "../src/contracts/embed";
import { EMBED_SCRIPT_FILE } from "../src/server/features/embed/embed-script";
import {
  type ManifestChunk,
  PUBLIC_PAGE_SCRIPT_ENTRY,
  PUBLIC_PAGE_STYLESHEET_ENTRY,
} from "../src/server/features/public-pages/page-assets";

const BUDGET_BYTES = 60 * 1024;
/** The public pages' stylesheet is inlined in every page's HTML, so each page view pays for it. */
const STYLESHEET_BUDGET_BYTES = 9 * 1024;
/** Both pages are rendered by features/public-pages/render-document.tsx with the same one script. */
const PAGES = { "product page": PUBLIC_PAGE_SCRIPT_ENTRY, storefront: PUBLIC_PAGE_SCRIPT_ENTRY };

const distDir = path.resolve(process.argv[2] ?? "dist/web");
const manifest: Record<string, ManifestChunk> = JSON.parse(
  await readFile(path.join(distDir, ".vite", "manifest.json"), "utf8"),
);

/** The entry's file and every chunk it imports statically, each once. */
function initialFiles(entry: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[entry];
  if (!chunk) throw new Error(`${entry} is not in ${distDir}/.vite/manifest.json: is the web app built?`);
  if (seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) initialFiles(imported, seen);
  return seen;
}

let failed = false;
for (const [page, entry] of Object.entries(PAGES)) {
  let total = 0;
  for (const file of initialFiles(entry)) {
    total += gzipSync(await readFile(path.join(distDir, file))).length;
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const verdict = total <= BUDGET_BYTES ? "ok" : "OVER BUDGET";
  console.log(
    `${page}: ${kb(total)} gzip of JavaScript before interactive (budget ${kb(BUDGET_BYTES)}): ${verdict}`,
  );
  if (total > BUDGET_BYTES) {
    console.error(
      "A public page loads more JavaScript than its budget: keep React, the router and other app code out of src/web/public-pages/.",
    );
    failed = true;
  }
}
// The embeddable buy button's script, which other sites load (src/web/embed): its own, smaller budget.
const embedBytes = gzipSync(await readFile(path.join(distDir, EMBED_SCRIPT_FILE))).length;
const embedOk = embedBytes <= EMBED_LIMITS.scriptBudgetBytes;
console.log(
  `embed.js: ${(embedBytes / 1024).toFixed(1)} KB gzip (budget ${(EMBED_LIMITS.scriptBudgetBytes / 1024).toFixed(1)} KB): ${embedOk ? "ok" : "OVER BUDGET"}`,
);
if (!embedOk) {
  console.error("embed.js is over its budget: it must stay a small standalone script (src/web/embed).");
  failed = true;
}

const stylesheet = manifest[PUBLIC_PAGE_STYLESHEET_ENTRY];
if (!stylesheet)
  throw new Error(`${PUBLIC_PAGE_STYLESHEET_ENTRY} is not in the manifest: is the web app built?`);
const styleBytes = gzipSync(await readFile(path.join(distDir, stylesheet.file))).length;
const styleOk = styleBytes <= STYLESHEET_BUDGET_BYTES;
console.log(
  `public pages' inline stylesheet: ${(styleBytes / 1024).toFixed(1)} KB gzip (budget ${(STYLESHEET_BUDGET_BYTES / 1024).toFixed(1)} KB): ${styleOk ? "ok" : "OVER BUDGET"}`,
);
if (!styleOk) {
  console.error(
    "The public pages' stylesheet is over its budget: it takes the classes of the files in src/web/public-pages/public-pages.css only.",
  );
  failed = true;
}

if (failed) process.exit(1);
