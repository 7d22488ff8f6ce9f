import { describe, expect, it } from "vitest";
import { parseRealtimeEvent, queriesChangedBy } from "./realtime";
import { sellerKeys } from "./seller-status";

describe("realtime events", () => {
  it("parses the server's messages and ignores anything else", () => {
    expect(parseRealtimeEvent('{"type":"subscription.changed"}')).toEqual({ type: "subscription.changed" });
    expect(parseRealtimeEvent('{"type":"payouts.changed"}')).toEqual({ type: "payouts.changed" });
    expect(parseRealtimeEvent('{"type":"something.else"}')).toBeNull();
    expect(parseRealtimeEvent("not json")).toBeNull();
    expect(parseRealtimeEvent(undefined)).toBeNull();
  });

  it("refreshes the seller's status on plan and payout changes, for that seller only", () => {
    expect(queriesChangedBy({ type: "subscription.changed" }, "u1")).toEqual([sellerKeys.status("u1")]);
    expect(queriesChangedBy({ type: "payouts.changed" }, "u1")).toEqual([sellerKeys.status("u1")]);
    expect(sellerKeys.status("u1")).not.toEqual(sellerKeys.status("u2"));
  });

  it("refreshes the sales table and the stat cards on a new sale or refund", () => {
    expect(queriesChangedBy({ type: "sales.changed" }, "u1")).toEqual([
      sellerKeys.sales("u1"),
      sellerKeys.stats("u1"),
    ]);
  });

  it("keeps every seller query under the seller's prefix", () => {
    const prefix = sellerKeys.all("u1");
    for (const key of [sellerKeys.status("u1"), sellerKeys.stats("u1"), sellerKeys.sales("u1")]) {
      expect(key.slice(0, prefix.length)).toEqual([...prefix]);
    }
  });
});
