import { describe, expect, it } from "vitest";
import { addBusinessDays } from "./business-days";

describe("addBusinessDays", () => {
  it("counts Monday to Friday only, in UTC, keeping the time of day", () => {
    // Friday 1 March 2024 + 10 business days: two weekends skipped, Friday 15 March.
    const friday = new Date("2024-03-01T16:30:00Z");
    expect(addBusinessDays(friday, 10).toISOString()).toBe("2024-03-15T16:30:00.000Z");
    // Friday + 1 is the Monday after the weekend.
    expect(addBusinessDays(friday, 1).toISOString()).toBe("2024-03-04T16:30:00.000Z");
    // A Saturday or Sunday start: its first business day is the Monday.
    expect(addBusinessDays(new Date("2024-03-02T09:00:00Z"), 1).toISOString()).toBe(
      "2024-03-04T09:00:00.000Z",
    );
    expect(addBusinessDays(new Date("2024-03-03T09:00:00Z"), 10).toISOString()).toBe(
      "2024-03-15T09:00:00.000Z",
    );
    // Wednesday + 10: across two weekends to the Wednesday two weeks later.
    expect(addBusinessDays(new Date("2024-03-06T00:00:00Z"), 10).toISOString()).toBe(
      "2024-03-20T00:00:00.000Z",
    );
    // Late on Friday in UTC is still Friday, whatever the machine's own time zone says.
    expect(addBusinessDays(new Date("2024-03-01T23:59:00Z"), 1).toISOString()).toBe(
      "2024-03-04T23:59:00.000Z",
    );
    expect(addBusinessDays(friday, 0).toISOString()).toBe(friday.toISOString());
  });
});
