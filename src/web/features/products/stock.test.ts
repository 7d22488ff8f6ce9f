import { describe, expect, it } from "vitest";
import { sellerStockLabel, stockNotice, storeCardBadge } from "./stock";

const unlimited = { inventoryType: "unlimited", quantityAvailable: null, soldOut: false } as const;
const limited = (quantityAvailable: number) =>
  ({ inventoryType: "limited", quantityAvailable, soldOut: quantityAvailable <= 0 }) as const;

describe("stockNotice", () => {
  it("tells how many are left whenever limited, and nothing when unlimited or sold out", () => {
    expect(stockNotice(unlimited)).toBeNull();
    expect(stockNotice(limited(1))).toBe("Only 1 left in stock");
    expect(stockNotice(limited(250))).toBe("Only 250 left in stock");
    expect(stockNotice(limited(0))).toBeNull();
  });
});

describe("storeCardBadge", () => {
  it("is SOLD OUT when sold out and '{n} left' at 5 or fewer", () => {
    expect(storeCardBadge(unlimited)).toBeNull();
    expect(storeCardBadge(limited(0))).toEqual({ label: "SOLD OUT", tone: "danger" });
    expect(storeCardBadge(limited(5))).toEqual({ label: "5 left", tone: "warning" });
    expect(storeCardBadge(limited(1))).toEqual({ label: "1 left", tone: "warning" });
    expect(storeCardBadge(limited(6))).toBeNull();
  });
});

describe("sellerStockLabel", () => {
  it("reads Unlimited, '{n} in stock' or Sold out", () => {
    expect(sellerStockLabel(unlimited)).toBe("Unlimited");
    expect(sellerStockLabel(limited(3))).toBe("3 in stock");
    expect(sellerStockLabel(limited(0))).toBe("Sold out");
  });
});
