import type { OutgoingHttpHeaders } from "node:http";
import { setTimeout } from "node:timers/promises";
import type { FastifyInstance } from "fastify";
import type { EventBus } from "../../adapters/events/event-bus";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { endResponse, OpenStreams } from "./open-streams";

const HEARTBEAT_MS = 25_000;
/** Enough for every tab and device a person really uses; bounds what one account can hold open. */
const MAX_STREAMS_PER_USER = 10;
/**
 * A stream closed to make room waits this long before its browser reconnects, so a person with more
 * tabs than the cap does not have them evict one another in a loop (each reconnect refetches).
 */
const EVICTED_RETRY_MS = 60_000;
/** How long shutdown waits for open streams to take their last bytes. */
const END_STREAMS_WAIT_MS = 2_000;

/** GET /api/events: a Server-Sent Events stream of changes to the signed-in user's data. */
export function registerRealtimeRoutes(app: FastifyInstance, deps: { auth: Auth; events: EventBus }): void {
  const open = new OpenStreams(MAX_STREAMS_PER_USER, `retry: ${EVICTED_RETRY_MS}\n\n`);
  // Open streams never finish by themselves: end them first, so closing the server does not wait on them.
  // A browser that does not read its stream any more must not hold the shutdown: wait a moment at most,
  // then the server's own deadline cuts what is left.
  app.addHook("preClose", async () => {
    await Promise.race([open.endAll(), setTimeout(END_STREAMS_WAIT_MS, undefined, { ref: false })]);
  });

  app.get("/api/events", async (request, reply) => {
    const user = await requireUser(deps.auth, request);
    reply.hijack();
    const res = reply.raw;
    // A hijacked answer sends only what is written here: the headers set so far (security headers) too.
    res.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      "content-type": "text/event-stream",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.write(": connected\n\n");
    const unsubscribe = deps.events.subscribe(user.id, (event) => {
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(": keep-alive\n\n"), HEARTBEAT_MS);
    // Nothing may write once the stream is ended, by us or by the browser going away.
    const stopWriting = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.remove(user.id, stream);
    };
    const stream = {
      end: (closing?: string) => {
        stopWriting();
        return endResponse(res, closing);
      },
    };
    open.add(user.id, stream);
    res.once("close", stopWriting);
  });
}
