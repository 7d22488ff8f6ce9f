import { describe, expect, it } from "vitest";
import { downloadsLeftLabel, formatDay, tokenOfDownloadPath } from "./purchase-format";

describe("purchase formatting", () => {
  it("says how many of the 3 downloads are left", () => {
    expect(downloadsLeftLabel(3)).toBe("3 of 3 downloads left");
    expect(downloadsLeftLabel(0)).toBe("0 of 3 downloads left");
  });

  it("shows a day the way buyers read it", () => {
    expect(formatDay("2026-11-22T12:00:00.000Z")).toBe("Nov 22, 2026");
  });

  it("reads the token of a download page path and nothing else", () => {
    expect(tokenOfDownloadPath("/download/abc.def-_1")).toBe("abc.def-_1");
    expect(tokenOfDownloadPath("/download/a%2Eb")).toBe("a.b");
    expect(tokenOfDownloadPath("/library?token=x")).toBeNull();
    expect(tokenOfDownloadPath("/download/")).toBeNull();
  });
});
