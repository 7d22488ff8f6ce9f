import { describe, expect, it, vi } from "vitest";
import { ORDER_POLL } from "../../../contracts/orders";
import { pollForOrder } from "./poll-for-order";

const noWait = vi.fn(async () => {});

describe("pollForOrder", () => {
  it("answers the order as soon as the lookup finds it", async () => {
    let calls = 0;
    const lookup = vi.fn(async () => {
      calls++;
      if (calls < 3) throw new Error("404");
      return { orderId: "o1" };
    });
    await expect(pollForOrder(lookup, new AbortController().signal, noWait)).resolves.toEqual({
      orderId: "o1",
    });
    expect(lookup).toHaveBeenCalledTimes(3);
  });

  it("gives up with null after the first look and 10 retries, one second apart", async () => {
    const wait = vi.fn(async () => {});
    const lookup = vi.fn(async () => {
      throw new Error("404");
    });
    await expect(pollForOrder(lookup, new AbortController().signal, wait)).resolves.toBeNull();
    expect(lookup).toHaveBeenCalledTimes(1 + ORDER_POLL.maxAttempts);
    expect(wait).toHaveBeenCalledWith(1000, expect.any(AbortSignal));
  });

  it("stops without a verdict when the page goes away", async () => {
    const controller = new AbortController();
    const lookup = vi.fn(async () => {
      controller.abort();
      throw new Error("404");
    });
    await expect(pollForOrder(lookup, controller.signal, noWait)).resolves.toBe("aborted");
    expect(lookup).toHaveBeenCalledTimes(1);
  });
});
