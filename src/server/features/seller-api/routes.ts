import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  API_KEY_LIMITS,
  apiKeyListSchema,
  apiRequestLogSchema,
  createApiKeySchema,
  createdApiKeySchema,
} from "../../../contracts/api-keys";
import type { Database } from "../../db/database";
import { enforceRateLimit } from "../../http/rate-limit";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { createApiKey } from "./create-api-key";
import { listApiKeys } from "./list-api-keys";
import { latestApiRequests } from "./request-log";
import { revokeApiKey } from "./revoke-api-key";

/** Making keys over and over (each revoked at once) would only fill the table. */
export const CREATE_KEY_RATE = { name: "api-key-create:seller", limit: 30, windowSeconds: 3600 };
const CREATE_KEY_RATE_MESSAGE = "Too many API keys created. Please try again in an hour.";

const keyParams = z.object({ id: z.string().min(1).max(64) });

/** Settings → API keys: the signed-in seller's own keys (another seller's is a 404) and latest calls. */
export function registerApiKeyRoutes(
  app: FastifyInstance,
  deps: { db: Database; auth: Auth; now: () => Date },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/api-keys", { schema: { response: { 200: apiKeyListSchema } } }, async (request) => {
    const seller = await requireUser(deps.auth, request);
    return { keys: await listApiKeys(deps.db, seller.id), maxKeys: API_KEY_LIMITS.maxKeysPerSeller };
  });

  api.post(
    "/api/api-keys",
    { schema: { body: createApiKeySchema, response: { 201: createdApiKeySchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      await enforceRateLimit(deps.db, CREATE_KEY_RATE, seller.id, CREATE_KEY_RATE_MESSAGE, deps.now());
      const created = await createApiKey(deps.db, seller.id, request.body.name, deps.now());
      // The whole key is in this answer only: no cache may keep it.
      return reply.status(201).header("cache-control", "no-store").send(created);
    },
  );

  api.delete("/api/api-keys/:id", { schema: { params: keyParams } }, async (request, reply) => {
    const seller = await requireUser(deps.auth, request);
    await revokeApiKey(deps.db, seller.id, request.params.id, deps.now());
    return reply.status(204).send();
  });

  api.get(
    "/api/api-keys/requests",
    { schema: { response: { 200: apiRequestLogSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return { requests: await latestApiRequests(deps.db, seller.id) };
    },
  );
}
