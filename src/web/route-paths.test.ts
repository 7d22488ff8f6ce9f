import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { APP_PAGE_PATHS, isPagePath, movedPageUrl } from "./route-paths";

describe("the pages' paths", () => {
  it("are the router's: it names no path of its own but the catch-all, and routes every listed page", () => {
    const router = readFileSync(new URL("./router.tsx", import.meta.url), "utf8");
    const ownPaths = [...router.matchAll(/path:\s*["'`]([^"'`]*)["'`]/g)].map((match) => match[1]);
    expect(ownPaths).toEqual(["*"]);
    for (const page of Object.keys(APP_PAGE_PATHS)) expect(router).toContain(`APP_PAGE_PATHS.${page}`);
    expect(router).toContain("SERVER_PAGE_PATHS.map(");
    expect(router).toContain("Object.keys(MOVED_PAGE_PATHS).map(");
  });

  it("match a path as the router does: whole segments, parameters, any case, a trailing slash", () => {
    for (const path of [
      "/",
      "/auth",
      "/Auth",
      "/dashboard/",
      "/dashboard/products/p1/edit",
      "/dashboard/webhooks",
      "/store/u1",
      "/download/a.b-c",
    ]) {
      expect(isPagePath(path), path).toBe(true);
    }
    for (const path of ["/authx", "/dashboard/more", "/products/p1", "/store", "/store/u1/extra", "/nope"]) {
      expect(isPagePath(path), path).toBe(false);
    }
  });

  it("send a seller page's earlier address to its page under /dashboard, with the query and the id as sent", () => {
    expect(movedPageUrl("/webhooks")).toBe("/dashboard/webhooks");
    expect(movedPageUrl("/Discounts/")).toBe("/dashboard/discounts");
    expect(movedPageUrl("/customers?search=a%20b&x=1")).toBe("/dashboard/customers?search=a%20b&x=1");
    expect(movedPageUrl("/customers/email")).toBe("/dashboard/customers/email");
    expect(movedPageUrl("/products/a%20b/edit")).toBe("/dashboard/products/a%20b/edit");
    for (const path of [
      "/dashboard/webhooks",
      "/webhooksx",
      "/products/a/b/edit",
      "/dashboard",
      "/new",
      "/settings",
    ]) {
      expect(movedPageUrl(path), path).toBeNull();
    }
  });
});
