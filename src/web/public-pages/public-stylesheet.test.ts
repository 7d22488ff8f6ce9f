import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../../..");
const stylesheet = path.join(__dirname, "public-pages.css");
/** Where the server renders the public pages from: everything they show is imported from here. */
const RENDERERS = ["src/server/features/public-pages/routes.tsx"];

/** The relative imports of a source file (`import … from "./x"`, `export … from "../y"`, `import("./z")`). */
function relativeImports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const specifiers = [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["'](\.{1,2}\/[^"']+)["']/g)];
  return specifiers.map((match) => match[1] as string);
}

function resolveSource(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ""));
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, "index.ts"),
    path.join(base, "index.tsx"),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** Every file under src/web that the public pages' renderers import, directly or not. */
function webFilesOfPublicPages(): string[] {
  const seen = new Set<string>();
  const queue = RENDERERS.map((file) => path.join(root, file));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file) || !/\.tsx?$/.test(file)) continue;
    seen.add(file);
    for (const specifier of relativeImports(file)) {
      const resolved = resolveSource(file, specifier);
      if (resolved) queue.push(resolved);
    }
  }
  return [...seen]
    .map((file) => path.relative(root, file))
    .filter((file) => file.startsWith("src/web/"))
    .sort();
}

/** The files and folders public-pages.css takes its classes from, relative to the repository. */
function stylesheetSources(): string[] {
  const css = readFileSync(stylesheet, "utf8");
  return [...css.matchAll(/@source\s+"([^"]+)"/g)].map((match) =>
    path.relative(root, path.resolve(__dirname, match[1] as string)),
  );
}

describe("the public pages' stylesheet", () => {
  it("takes its classes from every file the public pages render", () => {
    const sources = stylesheetSources();
    const covered = (file: string) =>
      sources.some((source) => file === source || file.startsWith(`${source}/`));
    const files = webFilesOfPublicPages();
    // The crawl itself must find the pages, or this test would pass on nothing.
    expect(files).toEqual(
      expect.arrayContaining([
        "src/web/features/products/product-page.tsx",
        "src/web/features/storefront/store-page.tsx",
        "src/web/features/marketing/landing-page.tsx",
      ]),
    );
    const missing = files.filter((file) => !covered(file));
    expect(missing, "add these to src/web/public-pages/public-pages.css as @source lines").toEqual([]);
  });

  it("names no file that is gone", () => {
    const gone = stylesheetSources().filter((source) => !existsSync(path.join(root, source)));
    expect(gone).toEqual([]);
  });
});
