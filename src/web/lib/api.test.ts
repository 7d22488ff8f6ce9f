import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

const toastError = vi.hoisted(() => vi.fn());
vi.mock("sonner", () => ({ toast: { error: toastError } }));

import { ApiError, api } from "./api";
import { ERROR_LOG_KEY, type ErrorLogEntry } from "./error-log";

const storage = new Map<string, string>();

function loggedEntries(): ErrorLogEntry[] {
  return JSON.parse(storage.get(ERROR_LOG_KEY) ?? "[]");
}

function respond(status: number, body: unknown) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status }));
}

beforeEach(() => {
  storage.clear();
  toastError.mockReset();
  vi.stubGlobal("window", {
    localStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    },
    location: { href: "http://localhost/status" },
    navigator: { userAgent: "vitest" },
    dispatchEvent: () => true,
    addEventListener: () => {},
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const okSchema = z.object({ ok: z.boolean() });

describe("api client", () => {
  it("returns the parsed body on success, with no toast", async () => {
    vi.stubGlobal("fetch", respond(200, { ok: true }));
    await expect(api("/api/x", { schema: okSchema })).resolves.toEqual({ ok: true });
    expect(toastError).not.toHaveBeenCalled();
  });

  it("turns a 4xx into an ApiError carrying the server message, without a global toast", async () => {
    vi.stubGlobal("fetch", respond(404, { code: "NOT_FOUND", message: "No such product", requestId: "r1" }));
    const error = await api("/api/x", { schema: okSchema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
      message: "No such product",
      requestId: "r1",
    });
    expect(toastError).not.toHaveBeenCalled();
    expect(loggedEntries()).toHaveLength(0);
  });

  it("keeps the details the server adds to an error", async () => {
    vi.stubGlobal(
      "fetch",
      respond(410, { code: "link_expired", message: "Expired", details: { productId: "p1" } }),
    );
    const error = await api("/api/x", { schema: okSchema }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 410, code: "link_expired", details: { productId: "p1" } });
  });

  it("toasts 'Server Error' and logs a status of 500 or more", async () => {
    vi.stubGlobal("fetch", respond(503, { code: "INTERNAL", message: "Internal error" }));
    await expect(api("/api/x", { schema: okSchema })).rejects.toBeInstanceOf(ApiError);
    expect(toastError).toHaveBeenCalledWith(
      "Server Error",
      expect.objectContaining({ description: "Failed to fetch data (503)" }),
    );
    expect(loggedEntries()[0]).toMatchObject({
      type: "server",
      url: "http://localhost/status",
      userAgent: "vitest",
    });
  });

  it("treats an expected status with a valid body as data", async () => {
    vi.stubGlobal("fetch", respond(503, { ok: false }));
    await expect(api("/api/x", { schema: okSchema, expectedStatuses: [503] })).resolves.toEqual({
      ok: false,
    });
    expect(toastError).not.toHaveBeenCalled();
  });

  it("toasts 'Network Error' and logs when the server cannot be reached", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    await expect(api("/api/x", { schema: okSchema })).rejects.toBeInstanceOf(TypeError);
    expect(toastError).toHaveBeenCalledWith(
      "Network Error",
      expect.objectContaining({ description: "Failed to connect to server" }),
    );
    expect(loggedEntries()[0]).toMatchObject({ type: "network", message: "Failed to fetch" });
  });

  it("only logs, without a toast, when asked to be quiet", async () => {
    vi.stubGlobal("fetch", respond(500, {}));
    await api("/api/x", { schema: okSchema, quiet: true }).catch(() => {});
    expect(toastError).not.toHaveBeenCalled();
    expect(loggedEntries()).toHaveLength(1);
  });
});
