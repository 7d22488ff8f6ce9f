import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";

/** How long requests in flight get to finish on shutdown before their connections are cut. */
export const DRAIN_DEADLINE_MS = 10_000;

type ShutdownLog = Pick<Logger, "info" | "warn" | "error">;

/**
 * Makes every close of the app a drain (buildApp registers it, so tests close the same way): while
 * closing, keep-alive connections end as soon as their response is done instead of holding the server
 * open until they time out.
 */
export function drainOnClose(server: FastifyInstance): void {
  let draining = false;
  server.addHook("preClose", async () => {
    draining = true;
  });
  // A response finished while draining says the connection ends, and one that was already on its way
  // is closed once it is done.
  server.addHook("onSend", async (_request, reply) => {
    if (draining) reply.header("connection", "close");
  });
  server.addHook("onResponse", async () => {
    if (draining) server.server.closeIdleConnections();
  });
}

/**
 * Closes the app: no new connections, every request in flight (an upload, a checkout, a sign-up)
 * finishes, and only after `deadlineMs` is what is left cut.
 */
export async function closeWithin(
  server: FastifyInstance,
  log: ShutdownLog,
  deadlineMs = DRAIN_DEADLINE_MS,
): Promise<void> {
  log.info(`shutdown: no new connections; finishing the requests in flight (at most ${deadlineMs} ms)`);
  const deadline = setTimeout(() => {
    log.warn("shutdown: requests still running at the deadline; closing their connections");
    server.server.closeAllConnections();
  }, deadlineMs);
  try {
    await server.close();
  } finally {
    clearTimeout(deadline);
  }
}

/**
 * Closes each part in order, logging as it goes. A part that fails to close is logged and the rest are
 * still closed (the database above all); the returned promise then rejects naming what failed.
 */
export async function closeInOrder(
  parts: Array<{ name: string; close(): Promise<unknown> }>,
  log: ShutdownLog,
): Promise<void> {
  const failed: string[] = [];
  const causes: unknown[] = [];
  for (const part of parts) {
    try {
      await part.close();
      log.info(`shutdown: ${part.name} closed`);
    } catch (error) {
      failed.push(`${part.name} (${error instanceof Error ? error.message : String(error)})`);
      causes.push(error);
      log.error({ err: error }, `shutdown: ${part.name} failed to close`);
    }
  }
  if (failed.length > 0) {
    throw new Error(`Shutdown could not close: ${failed.join(", ")}`, { cause: causes[0] });
  }
  log.info("shutdown: complete");
}
