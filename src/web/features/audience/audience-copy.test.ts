import { describe, expect, it } from "vitest";
import { customersLabel, updateEmailReach } from "./audience-copy";

describe("the audience pages' counts", () => {
  it("agree with one buyer and with many", () => {
    expect(updateEmailReach(1)).toBe(
      "An update email reaches the 1 buyer who has this product, with a link to their library for the new files.",
    );
    expect(updateEmailReach(2)).toBe(
      "An update email reaches the 2 buyers who have this product, with a link to their library for the new files.",
    );
    expect(customersLabel(1)).toBe("1 customer");
    expect(customersLabel(12)).toBe("12 customers");
  });
});
