import { describe, expect, it } from "vitest";
import { BYTES_PER_MB, STORAGE_QUOTA_BYTES } from "../../../contracts/uploads";
import { storageSummary } from "./storage-summary";

describe("storageSummary", () => {
  it("shows MB used of 5 GB with the percentage of 5 x 1024 MB", () => {
    expect(storageSummary(0, STORAGE_QUOTA_BYTES)).toEqual({
      usedMb: "0.00",
      quotaLabel: "5 GB",
      percent: 0,
      percentLabel: "0.0%",
    });
    const half = storageSummary(2560 * BYTES_PER_MB, STORAGE_QUOTA_BYTES);
    expect([half.usedMb, half.percent, half.percentLabel]).toEqual(["2560.00", 50, "50.0%"]);
    expect(storageSummary(1.5 * BYTES_PER_MB, STORAGE_QUOTA_BYTES).usedMb).toBe("1.50");
  });

  it("never draws past a full bar", () => {
    expect(storageSummary(STORAGE_QUOTA_BYTES * 2, STORAGE_QUOTA_BYTES).percent).toBe(100);
  });
});
