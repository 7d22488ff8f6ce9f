import { describe, expect, it } from "vitest";
import {
  DOWNLOAD_LINK_TERM,
  downloadAllowance,
  downloadButtonLabel,
  downloadsLeftLabel,
  downloadsLeftSummary,
  downloadTerms,
  formatDay,
} from "./download-terms";

describe("what buyers are told about downloads", () => {
  it("says the link lasts 24 hours and the purchase 3 downloads, before and after buying", () => {
    expect(DOWNLOAD_LINK_TERM).toBe("Each download link expires in 24 hours.");
    expect(downloadAllowance()).toBe("You can download each file up to 3 times within 30 days of purchase.");
    expect(downloadTerms("2026-12-22T12:00:00.000Z")).toBe(
      "Each download link expires in 24 hours. You can download each file up to 3 times until Dec 22, 2026.",
    );
  });

  it("says how many of the 3 downloads are left", () => {
    expect(downloadsLeftLabel(3)).toBe("3 of 3 downloads left");
    expect(downloadsLeftLabel(0)).toBe("0 of 3 downloads left");
  });

  it("counts downloads per file when a purchase has several", () => {
    expect(downloadsLeftSummary([{ downloadsRemaining: 2 }])).toBe("2 of 3 downloads left.");
    expect(downloadsLeftSummary([{ downloadsRemaining: 2 }, { downloadsRemaining: 3 }])).toBe(
      "2 files, each with its own 3 downloads.",
    );
    expect(downloadButtonLabel(1)).toBe("Download your file");
    expect(downloadButtonLabel(3)).toBe("Download your 3 files");
  });

  it("shows a day the way buyers read it", () => {
    expect(formatDay("2026-11-22T12:00:00.000Z")).toBe("Nov 22, 2026");
  });
});
