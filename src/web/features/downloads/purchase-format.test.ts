import { describe, expect, it } from "vitest";
import { tokenOfDownloadPath } from "./purchase-format";

describe("purchase formatting", () => {
  it("reads the token of a download page path and nothing else", () => {
    expect(tokenOfDownloadPath("/download/abc.def-_1")).toBe("abc.def-_1");
    expect(tokenOfDownloadPath("/download/a%2Eb")).toBe("a.b");
    expect(tokenOfDownloadPath("/library?token=x")).toBeNull();
    expect(tokenOfDownloadPath("/download/")).toBeNull();
  });
});
