import { describe, expect, it } from "vitest";
import { countOf, plural } from "./plural";

describe("words after a count", () => {
  it("are singular for exactly one, plural otherwise (zero included)", () => {
    expect(countOf(1, "buyer")).toBe("1 buyer");
    expect(countOf(0, "buyer")).toBe("0 buyers");
    expect(countOf(2, "buyer")).toBe("2 buyers");
    expect(countOf(1, "copy", "copies")).toBe("1 copy");
    expect(countOf(3, "copy", "copies")).toBe("3 copies");
    expect(plural(1, "has", "have")).toBe("has");
    expect(plural(5, "has", "have")).toBe("have");
  });
});
