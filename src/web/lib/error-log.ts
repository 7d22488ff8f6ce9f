/** The local error log of product rules, Error catalogue: every global error, kept in browser storage for /system-status. */

export const ERROR_LOG_KEY = "flatfee:error-log";
export const ERROR_LOG_LIMIT = 50;
/** Fired on window after the log changes, so an open monitor updates at once. */
export const ERROR_LOG_EVENT = "flatfee:error-log-changed";

export type ErrorType = "error" | "unhandledrejection" | "server" | "network" | "render";

export const ERROR_TYPE_LABELS: Record<ErrorType, string> = {
  error: "Script error",
  unhandledrejection: "Unhandled rejection",
  server: "Server error",
  network: "Network error",
  render: "Render crash",
};

export type ErrorLogEntry = {
  type: ErrorType;
  message: string;
  stack?: string;
  /** ISO 8601 */
  timestamp: string;
  url: string;
  userAgent: string;
};

/** The part of the Storage API the log needs, so tests can hand in a plain object. */
export type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function isEntry(value: unknown): value is ErrorLogEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.type === "string" && typeof entry.message === "string" && typeof entry.timestamp === "string"
  );
}

export function readErrorLog(store: KeyValueStore): ErrorLogEntry[] {
  try {
    const parsed: unknown = JSON.parse(store.getItem(ERROR_LOG_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
  } catch {
    return [];
  }
}

/** Adds an entry in front (newest first) and keeps at most ERROR_LOG_LIMIT. */
export function appendErrorLog(store: KeyValueStore, entry: ErrorLogEntry): ErrorLogEntry[] {
  const next = [entry, ...readErrorLog(store)].slice(0, ERROR_LOG_LIMIT);
  try {
    store.setItem(ERROR_LOG_KEY, JSON.stringify(next));
  } catch {
    // Storage full or blocked (private mode): the log is best effort and must never throw itself.
  }
  return next;
}

export function clearErrorLog(store: KeyValueStore): void {
  try {
    store.removeItem(ERROR_LOG_KEY);
  } catch {
    // Same as above: best effort.
  }
}

/**
 * Browsers' Web Locks (used by auth/session libraries across tabs) reject with lock-manager
 * errors when a tab is slow; they are noise, not failures of the app.
 */
export function isLockManagerError(reason: unknown): boolean {
  const text =
    reason instanceof Error
      ? `${reason.name} ${reason.message}`
      : typeof reason === "string"
        ? reason
        : typeof reason === "object" && reason !== null && "message" in reason
          ? String((reason as { message: unknown }).message)
          : "";
  return /lock.?manager|NavigatorLockAcquireTimeoutError/i.test(text);
}

/** A readable message and stack out of whatever was thrown. */
export function describeError(reason: unknown): { message: string; stack?: string } {
  if (reason instanceof Error) {
    return reason.stack
      ? { message: reason.message || reason.name, stack: reason.stack }
      : { message: reason.message };
  }
  if (typeof reason === "string") return { message: reason };
  try {
    return { message: JSON.stringify(reason) ?? String(reason) };
  } catch {
    return { message: String(reason) };
  }
}
