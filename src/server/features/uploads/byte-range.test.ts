import { describe, expect, it } from "vitest";
import { answerRange } from "./byte-range";

describe("answerRange", () => {
  it("serves one range, clamped to the object", () => {
    expect(answerRange("bytes=0-99", 1000)).toEqual({ kind: "partial", range: { start: 0, end: 99 } });
    expect(answerRange("bytes=900-5000", 1000)).toEqual({ kind: "partial", range: { start: 900, end: 999 } });
    expect(answerRange("bytes=990-", 1000)).toEqual({ kind: "partial", range: { start: 990, end: 999 } });
    expect(answerRange("bytes=-10", 1000)).toEqual({ kind: "partial", range: { start: 990, end: 999 } });
    expect(answerRange("bytes=-5000", 1000)).toEqual({ kind: "partial", range: { start: 0, end: 999 } });
  });

  it("refuses ranges that start past the end", () => {
    expect(answerRange("bytes=1000-", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(answerRange("bytes=-0", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(answerRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
  });

  it("sends the whole object for no, malformed, reversed or multiple ranges", () => {
    for (const header of [undefined, "", "items=0-1", "bytes=5-1", "bytes=0-1,5-6", "bytes=-", "bytes=a-b"]) {
      expect(answerRange(header, 1000)).toEqual({ kind: "whole" });
    }
  });
});
