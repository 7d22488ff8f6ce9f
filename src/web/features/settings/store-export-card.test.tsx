import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { StoreExport, StoreExportState } from "../../../contracts/store-export";
import { ExportState } from "./store-export-card";

const GB = 1024 ** 3;
const latest = (fields: Partial<StoreExport>): StoreExport => ({
  id: "exp_1",
  status: "queued",
  progress: { bytesDone: 0, bytesTotal: 0, recordsDone: 0 },
  sizeBytes: null,
  error: null,
  createdAt: "2026-11-27T10:00:00.000Z",
  readyAt: null,
  expiresAt: null,
  downloadUrl: null,
  ...fields,
});
const render = (state: Partial<StoreExportState>) =>
  renderToStaticMarkup(
    <ExportState
      state={{ latest: null, startedToday: 0, nextAllowedAt: null, ...state }}
      starting={false}
      onStart={() => {}}
    />,
  );

describe("the settings page's Export my store card", () => {
  it("offers to export a store that never did", () => {
    const html = render({});
    expect(html).toContain("Export my store");
    expect(html).not.toContain('disabled=""');
  });

  it("shows the files copied so far while it builds, and no button", () => {
    const html = render({
      latest: latest({
        status: "building",
        progress: { bytesDone: 2 * GB, bytesTotal: 5 * GB, recordsDone: 1234 },
      }),
    });
    expect(html).toContain("40%");
    expect(html).toContain("2 GB of 5 GB of files · 1,234 records");
    expect(html).toMatch(
      /role="progressbar"[^>]*aria-valuenow="40"|aria-valuenow="40"[^>]*role="progressbar"/,
    );
    expect(html).not.toContain("<button");
  });

  it("links the ready archive with its size and expiry, and may export again", () => {
    const html = render({
      latest: latest({
        status: "ready",
        sizeBytes: 3 * GB,
        readyAt: "2026-11-27T10:05:00.000Z",
        expiresAt: "2026-12-04T10:05:00.000Z",
        downloadUrl: "https://flatfee.example/store-export/t.s",
      }),
    });
    expect(html).toContain("Your archive is ready (3 GB).");
    expect(html).toContain('href="https://flatfee.example/store-export/t.s"');
    expect(html).toContain("December 4, 2026");
    expect(html).toContain("Export again");
  });

  it("says why it failed, with a way to try again; and when the daily limit is used, from when", () => {
    const failed = render({ latest: latest({ status: "failed", error: "We couldn't finish." }) });
    expect(failed).toContain("We couldn&#x27;t finish.");
    expect(failed).toContain("Export again");
    const limited = render({
      latest: latest({ status: "expired", expiresAt: "2026-11-20T10:00:00.000Z" }),
      startedToday: 3,
      nextAllowedAt: "2026-11-28T10:00:00.000Z",
    });
    expect(limited).toContain('disabled=""');
    expect(limited).toContain("You can export 3 times in 24 hours");
    expect(limited).toContain("expired on November 20, 2026");
  });
});
