import { describe, expect, it } from "vitest";
import { isAlreadyReported } from "./already-reported";
import { ApiError } from "./api";

describe("isAlreadyReported", () => {
  it("is true for network failures, 5xx and cancellations, false for a 4xx the caller must show", () => {
    expect(isAlreadyReported(new TypeError("Failed to fetch"))).toBe(true);
    expect(isAlreadyReported(new ApiError(503, "unavailable", "Down"))).toBe(true);
    expect(isAlreadyReported(new DOMException("stop", "AbortError"))).toBe(true);
    expect(isAlreadyReported(new ApiError(400, "bad", "Bad"))).toBe(false);
    expect(isAlreadyReported(new Error("other"))).toBe(false);
  });
});
