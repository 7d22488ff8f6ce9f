import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";

declare module "fastify" {
  interface FastifyInstance {
    /** Whether the server is closing: answers then say the connection ends (drainOnClose). */
    draining(): boolean;
  }
}

/** How long requests in flight get to finish on shutdown before their connections are cut. */
export const DRAIN_DEADLINE_MS = 10_000;

/**
 * How long a kept-alive connection must have had no request in flight and no byte arriving before a
 * shutdown closes it: long enough for a request already on its way to be read and answered.
 */
export const QUIET_MS = 200;

/** The app's Fastify options for closing, with drainOnClose. */
export const DRAINING_CLOSE = {
  // Node's close() closes idle keep-alive connections (between requests, see drainOnClose); Fastify
  // cuts none itself.
  forceCloseConnections: "idle",
  // A request read after closing began was sent before its client could know, often before the
  // signal: it is answered (with `Connection: close`), not refused with a 503.
  return503OnClosing: false,
} as const;

type ShutdownLog = Pick<Logger, "info" | "warn" | "error">;

/**
 * Makes every close of the app a drain (buildApp registers it, so tests close the same way): while
 * closing, responses say the connection ends, and kept-alive connections are closed between requests
 * once they are quiet, instead of holding the server open until they time out.
 */
export function drainOnClose(server: FastifyInstance, quietMs = QUIET_MS): void {
  let draining = false;
  server.decorate("draining", () => draining);
  server.addHook("preClose", async () => {
    draining = true;
  });
  // A response finished while draining says the connection ends (Node then closes it).
  server.addHook("onSend", (_request, reply, payload, done) => {
    if (draining) reply.header("connection", "close");
    done(null, payload);
  });
  closeIdleConnectionsWhenQuiet(server.server, quietMs);
}

interface ConnectionState {
  requestsInFlight: number;
  bytesRead: number;
  quietSince: number;
}

/**
 * Node's closeIdleConnections(), which its close() calls, destroys every connection that is between two
 * requests at that instant, also one whose next request has arrived but is not read yet: that client
 * gets a reset instead of an answer. Here it closes each such connection only once it has been quiet
 * for `quietMs` (nothing in flight, no byte read), so a request on its way is read and answered first.
 */
function closeIdleConnectionsWhenQuiet(httpServer: Server, quietMs: number): void {
  const connections = new Map<Socket, ConnectionState>();
  httpServer.on("connection", (socket: Socket) => {
    connections.set(socket, { requestsInFlight: 0, bytesRead: 0, quietSince: performance.now() });
    socket.once("close", () => connections.delete(socket));
  });
  httpServer.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const state = connections.get(request.socket);
    if (!state) return;
    state.requestsInFlight++;
    response.once("close", () => {
      state.requestsInFlight--;
      state.quietSince = performance.now();
    });
  });

  let sweeping: NodeJS.Timeout | undefined;
  httpServer.closeIdleConnections = () => {
    sweeping ??= setInterval(
      () => {
        const now = performance.now();
        for (const [socket, state] of connections) {
          if (state.requestsInFlight > 0 || socket.bytesRead !== state.bytesRead) {
            state.bytesRead = socket.bytesRead;
            state.quietSince = now;
          } else if (now - state.quietSince >= quietMs) {
            socket.destroy();
          }
        }
      },
      Math.max(1, quietMs / 4),
    ).unref();
  };
  httpServer.once("close", () => clearInterval(sweeping));
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
