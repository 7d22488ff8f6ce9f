import { describe, expect, it } from "vitest";
import { ORDER_MESSAGES } from "../../../contracts/orders";
import { unavailableKind } from "./unavailable-reason";

describe("unavailableKind", () => {
  it("tells the server's reasons apart, anything else being a generic unavailable", () => {
    expect(unavailableKind(ORDER_MESSAGES.refunded)).toBe("refunded");
    expect(unavailableKind(ORDER_MESSAGES.limitReached)).toBe("limitReached");
    expect(unavailableKind(ORDER_MESSAGES.windowOver)).toBe("windowOver");
    expect(unavailableKind("The creator removed this product.")).toBe("removed");
  });
});
