import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BuildTarget, reasonToBuild, targets } from "./build-if-stale.mjs";

const target = (name: string) => targets.find((candidate) => candidate.name === name) as BuildTarget;
const web = target("web app");
const server = target("server");

// A checkout in a temp folder: sources, then a build (output and stamp) one minute after them.
const SOURCES_AT = new Date("2026-01-01T10:00:00Z");
const BUILT_AT = new Date("2026-01-01T10:01:00Z");
const LATER = new Date("2026-01-01T10:02:00Z");
const SOURCE_FILES = [
  "src/web/main.tsx",
  "src/web/features/products/product-page.tsx",
  "src/web/features/products/product-page.test.tsx",
  "src/contracts/products.ts",
  "src/server/main.ts",
  "src/stripe-emulator/index.ts",
  "vite.config.ts",
  "vite.server.config.ts",
  "tsconfig.json",
  "package-lock.json",
];

let root: string;
const file = (relativePath: string, time: Date) => {
  const absolutePath = path.join(root, relativePath);
  mkdirSync(path.dirname(absolutePath), { recursive: true });
  writeFileSync(absolutePath, relativePath);
  utimesSync(absolutePath, time, time);
};
const FOLDERS = [
  "src",
  "src/web",
  "src/web/features",
  "src/web/features/products",
  "src/contracts",
  "src/server",
  "src/stripe-emulator",
];

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "flatfee-build-check-"));
  for (const source of SOURCE_FILES) file(source, SOURCES_AT);
  // Writing the files just made their folders "now".
  for (const folder of FOLDERS) utimesSync(path.join(root, folder), SOURCES_AT, SOURCES_AT);
  for (const built of [web, server]) {
    file(built.output, BUILT_AT);
    file(built.stamp, BUILT_AT);
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("reasonToBuild", () => {
  it("skips a build whose stamp is newer than every source", () => {
    expect(reasonToBuild(root, web)).toBeUndefined();
    expect(reasonToBuild(root, server)).toBeUndefined();
  });

  it("builds when the stamp or the output is missing", () => {
    rmSync(path.join(root, web.stamp));
    rmSync(path.join(root, server.output));

    expect(reasonToBuild(root, web)).toBe("missing");
    expect(reasonToBuild(root, server)).toBe("missing");
  });

  it("builds when a source is newer than the stamp", () => {
    file("src/contracts/products.ts", LATER);

    expect(reasonToBuild(root, web)).toBe("sources changed");
    expect(reasonToBuild(root, server)).toBe("sources changed");
  });

  it("builds when a source was deleted (only its folder's time changes)", () => {
    rmSync(path.join(root, "src/web/main.tsx"));
    utimesSync(path.join(root, "src/web"), LATER, LATER);

    expect(reasonToBuild(root, web)).toBe("sources changed");
  });

  it("builds when the lock file changed (new dependencies)", () => {
    file("package-lock.json", LATER);

    expect(reasonToBuild(root, web)).toBe("sources changed");
    expect(reasonToBuild(root, server)).toBe("sources changed");
  });

  it("rebuilds the server, not the web app, for a server-only change", () => {
    file("src/server/main.ts", LATER);
    file("src/stripe-emulator/index.ts", LATER);

    expect(reasonToBuild(root, web)).toBeUndefined();
    expect(reasonToBuild(root, server)).toBe("sources changed");
  });

  it("rebuilds the server for a web change too (it renders the web app's pages)", () => {
    file("src/web/features/products/product-page.tsx", LATER);

    expect(reasonToBuild(root, server)).toBe("sources changed");
  });

  it("rebuilds nothing for a changed test file", () => {
    file("src/web/features/products/product-page.test.tsx", LATER);

    expect(reasonToBuild(root, web)).toBeUndefined();
    expect(reasonToBuild(root, server)).toBeUndefined();
  });
});
