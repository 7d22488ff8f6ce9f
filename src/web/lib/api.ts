import type { z } from "zod";
import type { ErrorCode } from "../../contracts/error-codes";
import { apiErrorSchema } from "../../contracts/errors";
import { recordError, reportError } from "./report-error";

/** A 4xx answer from the API. Not a global error: the caller shows its own toast with `message`. */
export class ApiError extends Error {
  readonly status: number;
  /** One of contracts/error-codes.ts, or Better Auth's own; compare with `hasCode`. */
  readonly code: string;
  readonly requestId: string | undefined;
  /** Facts the server adds to some errors (e.g. an expired download link names its product). */
  readonly details: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    message: string,
    requestId?: string,
    details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.details = details;
  }
}

// Leaving the page cancels requests in flight, which fetch reports as a network failure. It is not one.
let unloading = false;
if (typeof window !== "undefined") {
  window.addEventListener("beforeunload", () => {
    unloading = true;
  });
  window.addEventListener("pageshow", () => {
    unloading = false;
  });
}

type MonitorOptions = {
  /** Log failures but show no toast (e.g. the background session check). */
  quiet?: boolean;
  /** Statuses that are an expected answer here, not a server failure. */
  expectedStatuses?: readonly number[];
};

/**
 * fetch, with the global handling of product rules, Error catalogue: a failed connection is 'Network Error',
 * a status of 500 or more is 'Server Error'. Both are logged locally. Everything else is the caller's.
 */
export async function monitoredFetch(
  input: RequestInfo | URL,
  init?: RequestInit,
  options: MonitorOptions = {},
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    const aborted = error instanceof DOMException && error.name === "AbortError";
    if (!aborted && !unloading) {
      if (options.quiet) recordError("network", error);
      else reportError("network", error, "Network Error", "Failed to connect to server");
    }
    throw error;
  }
  if (response.status >= 500 && !options.expectedStatuses?.includes(response.status)) {
    const failure = new Error(`${init?.method ?? "GET"} ${urlOf(input)} answered ${response.status}`);
    if (options.quiet) recordError("server", failure);
    else reportError("server", failure, "Server Error", `Failed to fetch data (${response.status})`);
  }
  return response;
}

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

type RequestOptions<T> = MonitorOptions & {
  schema: z.ZodType<T>;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  signal?: AbortSignal;
};

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The one typed way to call the API: the response is parsed with the shared contract's schema.
 * An expected non-2xx status whose body still matches the schema (e.g. health answering 503) is data.
 */
export async function api<T>(path: string, options: RequestOptions<T>): Promise<T> {
  const { schema, method = "GET", body, signal, ...monitor } = options;
  const init: RequestInit = { method, credentials: "same-origin", headers: { accept: "application/json" } };
  if (signal) init.signal = signal;
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, "content-type": "application/json" };
  }
  const response = await monitoredFetch(path, init, monitor);
  const payload = await readJson(response);

  if (response.ok || monitor.expectedStatuses?.includes(response.status)) {
    const parsed = schema.safeParse(payload);
    if (parsed.success) return parsed.data;
    if (response.ok) throw new Error(`Unexpected response from ${path}`);
  }

  const error = apiErrorSchema.safeParse(payload);
  if (error.success) {
    const { code, message, requestId, details } = error.data;
    throw new ApiError(response.status, code, message, requestId, details);
  }
  throw new ApiError(response.status, "UNKNOWN", `Request failed (${response.status})`);
}

/** Whether `error` is the API's answer with this code (a code not in contracts/error-codes.ts does not compile). */
export const hasCode = (error: unknown, code: ErrorCode): boolean =>
  error instanceof ApiError && error.code === code;
