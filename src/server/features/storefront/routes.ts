import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { storefrontSchema } from "../../../contracts/products";
import { storeSettingsInputSchema, storeSettingsSchema } from "../../../contracts/store-settings";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { enforceRateLimit } from "../../http/rate-limit";
import { currentUser, requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { recordStoreView } from "./record-store-view";
import { getStoreSettings, updateStoreSettings } from "./store-settings";
import { getStorefront } from "./storefront";

export interface StorefrontRouteDeps {
  db: Database;
  storage: Storage;
  auth: Auth;
  /** Store settings show on the seller's public pages, which are dropped from caches when they change. */
  events: EventBus;
  /** Keys the visitor hash of store views. */
  secret: string;
  now: () => Date;
}

const storeParams = z.object({ userId: z.string().min(1).max(64) });
/** Past this, views from one address are not recorded (a script rotating user agents cannot inflate them). */
const STORE_VIEW_LIMIT = { name: "store-view:ip", limit: 60, windowSeconds: 60 * 60 };

export function registerStorefrontRoutes(app: FastifyInstance, deps: StorefrontRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/public/stores/:userId",
    { schema: { params: storeParams, response: { 200: storefrontSchema } } },
    async (request) => getStorefront(deps.db, request.params.userId, deps.now()),
  );

  // Answers 204 whether or not the view counted: visitors learn nothing from it.
  api.post(
    "/api/public/stores/:userId/views",
    { schema: { params: storeParams } },
    async (request, reply) => {
      const withinLimit = await enforceRateLimit(deps.db, STORE_VIEW_LIMIT, request.ip, "").then(
        () => true,
        () => false,
      );
      if (!withinLimit) return reply.status(204).send();
      const viewer = await currentUser(deps.auth, request);
      await recordStoreView(deps.db, deps.secret, {
        storeOwnerId: request.params.userId,
        userAgent: request.headers["user-agent"],
        ip: request.ip,
        viewerId: viewer?.id,
        now: deps.now(),
      });
      return reply.status(204).send();
    },
  );

  api.get("/api/store-settings", { schema: { response: { 200: storeSettingsSchema } } }, async (request) => {
    const seller = await requireUser(deps.auth, request);
    return getStoreSettings(deps.db, seller.id);
  });

  api.put(
    "/api/store-settings",
    { schema: { body: storeSettingsInputSchema, response: { 200: storeSettingsSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return updateStoreSettings(deps, seller.id, request.body);
    },
  );
}
