import { describe, expect, it } from "vitest";
import { afterSignInPath } from "./after-sign-in";

describe("afterSignInPath", () => {
  it("returns to a path of this site", () => {
    expect(afterSignInPath("/library")).toBe("/library");
    expect(afterSignInPath("/product/abc?x=1")).toBe("/product/abc?x=1");
  });

  it.each([null, "", "https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)"])(
    "goes to the dashboard for %j",
    (redirect) => {
      expect(afterSignInPath(redirect)).toBe("/dashboard");
    },
  );
});
