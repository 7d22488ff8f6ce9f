import { describe, expect, it } from "vitest";
import { describeProgress, uploadProgress } from "./upload-progress";

describe("uploadProgress", () => {
  it("is the share of bytes sent, rounded down", () => {
    expect(uploadProgress(0, 1000)).toEqual({ sentBytes: 0, totalBytes: 1000, percent: 0 });
    expect(uploadProgress(333, 1000).percent).toBe(33);
    expect(uploadProgress(999, 1000).percent).toBe(99);
  });

  it("says 100% only when every byte is sent", () => {
    expect(uploadProgress(999_999, 1_000_000).percent).toBe(99);
    expect(uploadProgress(1_000_000, 1_000_000).percent).toBe(100);
  });

  it("keeps odd browser reports inside 0..total", () => {
    expect(uploadProgress(-5, 100)).toEqual({ sentBytes: 0, totalBytes: 100, percent: 0 });
    expect(uploadProgress(150, 100)).toEqual({ sentBytes: 100, totalBytes: 100, percent: 100 });
    expect(uploadProgress(0, 0).percent).toBe(100);
  });

  it("reads as bytes of total with the percentage", () => {
    expect(describeProgress(uploadProgress(1536, 3072))).toBe("1.5 KB of 3 KB (50%)");
  });
});
