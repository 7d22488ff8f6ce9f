/**
 * No connection to the database could be made: it is restarting, failing over, refusing or out of
 * connections, or too slow to answer. A passing condition, not a bug: requests answer 503 and
 * background loops try again on their next round.
 */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`Database unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "DatabaseUnavailableError";
  }
}

// PostgreSQL's admin_shutdown, crash_shutdown, cannot_connect_now and too_many_connections (class 08,
// connection_exception, is matched by prefix), and the socket errors of a connection cut under a query.
const UNAVAILABLE_CODES = new Set([
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
]);
// What `pg` says when a connection ends under a query, or a query is sent on one that has.
const UNAVAILABLE_MESSAGES = ["Connection terminated", "Client has encountered a connection error"];

/**
 * Whether an error (or one it was caused by: Better Auth wraps database errors) means the database
 * is unreachable right now rather than that the request or the code is wrong.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof DatabaseUnavailableError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
    const { message } = current;
    if (UNAVAILABLE_MESSAGES.some((prefix) => message.startsWith(prefix))) return true;
    current = current.cause;
  }
  return false;
}
