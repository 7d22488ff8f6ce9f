import { describe, expect, it, vi } from "vitest";
import { pollUntil } from "./poll";

const noWait = async () => {};

describe("pollUntil", () => {
  it("is done at once when the first look already passes, without waiting", async () => {
    const wait = vi.fn(noWait);
    const check = vi.fn(async () => true);
    const outcome = await pollUntil({
      check,
      isDone: (v) => v,
      intervalMs: 1000,
      maxAttempts: 30,
      signal: new AbortController().signal,
      wait,
    });
    expect(outcome).toBe("done");
    expect(check).toHaveBeenCalledTimes(1);
    expect(wait).not.toHaveBeenCalled();
  });

  it("waits the interval between checks and stops as soon as one passes", async () => {
    const wait = vi.fn(noWait);
    let calls = 0;
    const outcome = await pollUntil({
      check: async () => ++calls,
      isDone: (n) => n === 4,
      intervalMs: 1000,
      maxAttempts: 30,
      signal: new AbortController().signal,
      wait,
    });
    expect(outcome).toBe("done");
    expect(calls).toBe(4);
    expect(wait).toHaveBeenCalledTimes(3);
    expect(wait).toHaveBeenCalledWith(1000, expect.any(AbortSignal));
  });

  it("gives up after the first look plus maxAttempts polls", async () => {
    const check = vi.fn(async () => false);
    const outcome = await pollUntil({
      check,
      isDone: (v) => v,
      intervalMs: 1000,
      maxAttempts: 30,
      signal: new AbortController().signal,
      wait: noWait,
    });
    expect(outcome).toBe("timedOut");
    expect(check).toHaveBeenCalledTimes(31);
  });

  it("counts a failed check as not yet and keeps polling", async () => {
    let calls = 0;
    const outcome = await pollUntil({
      check: async () => {
        calls++;
        if (calls < 3) throw new Error("503");
        return true;
      },
      isDone: (v) => v,
      intervalMs: 1000,
      maxAttempts: 30,
      signal: new AbortController().signal,
      wait: noWait,
    });
    expect(outcome).toBe("done");
    expect(calls).toBe(3);
  });

  it("stops without a verdict when aborted", async () => {
    const controller = new AbortController();
    const check = vi.fn(async () => {
      controller.abort();
      return false;
    });
    const outcome = await pollUntil({
      check,
      isDone: (v) => v,
      intervalMs: 1000,
      maxAttempts: 30,
      signal: controller.signal,
      wait: noWait,
    });
    expect(outcome).toBe("aborted");
    expect(check).toHaveBeenCalledTimes(1);
  });

  it("really waits with timers by default, and an abort cuts the wait short", async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const check = vi.fn(async () => false);
      const outcome = pollUntil({
        check,
        isDone: (v) => v,
        intervalMs: 1000,
        maxAttempts: 30,
        signal: controller.signal,
      });
      await vi.advanceTimersByTimeAsync(2500);
      expect(check).toHaveBeenCalledTimes(3);
      controller.abort();
      await expect(outcome).resolves.toBe("aborted");
    } finally {
      vi.useRealTimers();
    }
  });
});
