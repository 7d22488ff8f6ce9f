import { describe, expect, it } from "vitest";
import {
  appendErrorLog,
  clearErrorLog,
  describeError,
  ERROR_LOG_KEY,
  ERROR_LOG_LIMIT,
  type ErrorLogEntry,
  isLockManagerError,
  type KeyValueStore,
  readErrorLog,
} from "./error-log";

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

function entry(message: string): ErrorLogEntry {
  return {
    type: "error",
    message,
    timestamp: new Date().toISOString(),
    url: "http://localhost/",
    userAgent: "test",
  };
}

describe("error log", () => {
  it("keeps the newest entry first", () => {
    const store = memoryStore();
    appendErrorLog(store, entry("first"));
    appendErrorLog(store, entry("second"));
    expect(readErrorLog(store).map((e) => e.message)).toEqual(["second", "first"]);
  });

  it("keeps at most 50 entries, dropping the oldest", () => {
    const store = memoryStore();
    for (let i = 1; i <= 60; i++) appendErrorLog(store, entry(`error ${i}`));
    const log = readErrorLog(store);
    expect(ERROR_LOG_LIMIT).toBe(50);
    expect(log).toHaveLength(50);
    expect(log[0]?.message).toBe("error 60");
    expect(log[49]?.message).toBe("error 11");
  });

  it("clears everything", () => {
    const store = memoryStore();
    appendErrorLog(store, entry("x"));
    clearErrorLog(store);
    expect(readErrorLog(store)).toEqual([]);
  });

  it("survives corrupt storage", () => {
    const store = memoryStore();
    store.setItem(ERROR_LOG_KEY, "{not json");
    expect(readErrorLog(store)).toEqual([]);
    store.setItem(ERROR_LOG_KEY, JSON.stringify([{ nope: 1 }, entry("ok")]));
    expect(readErrorLog(store).map((e) => e.message)).toEqual(["ok"]);
  });

  it("never throws when storage refuses to write", () => {
    const store: KeyValueStore = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => {},
    };
    expect(() => appendErrorLog(store, entry("x"))).not.toThrow();
  });
});

describe("lock-manager filter", () => {
  it("ignores lock-manager rejections", () => {
    expect(isLockManagerError(new Error("Acquiring an exclusive Navigator LockManager lock timed out"))).toBe(
      true,
    );
    expect(isLockManagerError("lock manager unavailable")).toBe(true);
    const timeout = new Error("timed out");
    timeout.name = "NavigatorLockAcquireTimeoutError";
    expect(isLockManagerError(timeout)).toBe(true);
    expect(isLockManagerError({ message: "LockManager returned null lock" })).toBe(true);
  });

  it("keeps every other rejection", () => {
    expect(isLockManagerError(new Error("Failed to load products"))).toBe(false);
    expect(isLockManagerError(new Error("blocked"))).toBe(false);
    expect(isLockManagerError(undefined)).toBe(false);
    expect(isLockManagerError(42)).toBe(false);
  });
});

describe("describeError", () => {
  it("reads errors, strings and objects", () => {
    expect(describeError(new Error("boom")).message).toBe("boom");
    expect(describeError("plain")).toEqual({ message: "plain" });
    expect(describeError({ a: 1 })).toEqual({ message: '{"a":1}' });
  });
});
