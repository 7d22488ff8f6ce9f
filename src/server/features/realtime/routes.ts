import type { FastifyInstance } from "fastify";
import type { EventBus } from "../../adapters/events/event-bus";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth/auth";

const HEARTBEAT_MS = 25_000;

/** GET /api/events: a Server-Sent Events stream of changes to the signed-in user's data. */
export function registerRealtimeRoutes(app: FastifyInstance, deps: { auth: Auth; events: EventBus }): void {
  app.get("/api/events", async (request, reply) => {
    const user = await requireUser(deps.auth, request);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
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
    request.raw.on("close", () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
  });
}
