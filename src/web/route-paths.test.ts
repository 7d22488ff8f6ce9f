import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { APP_PAGE_PATHS, isPagePath } from "./route-paths";

describe("the pages' paths", () => {
  it("are the router's: it names no path of its own but the catch-all, and routes every listed page", () => {
    const router = readFileSync(new URL("./router.tsx", import.meta.url), "utf8");
    const ownPaths = [...router.matchAll(/path:\s*["'`]([^"'`]*)["'`]/g)].map((match) => match[1]);
    expect(ownPaths).toEqual(["*"]);
    for (const page of Object.keys(APP_PAGE_PATHS)) expect(router).toContain(`APP_PAGE_PATHS.${page}`);
    expect(router).toContain("SERVER_PAGE_PATHS.map(");
  });

  it("match a path as the router does: whole segments, parameters, any case, a trailing slash", () => {
    for (const path of [
      "/",
      "/auth",
      "/Auth",
      "/dashboard/",
      "/products/p1/edit",
      "/store/u1",
      "/download/a.b-c",
    ]) {
      expect(isPagePath(path), path).toBe(true);
    }
    for (const path of ["/authx", "/dashboard/more", "/products/p1", "/store", "/store/u1/extra", "/nope"]) {
      expect(isPagePath(path), path).toBe(false);
    }
  });
});
