import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { STORE_EXPORT_MESSAGES, storeExportStateSchema } from "../../../contracts/store-export";
import type { EventBus } from "../../adapters/events/event-bus";
import { attachmentDisposition } from "../../adapters/storage/storage";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { sendObject } from "../uploads";
import { exportArchiveOf } from "./download-export";
import { storeExportState } from "./export-state";
import { startStoreExport } from "./start-export";
import type { StoreExportDeps } from "./store-export-deps";
import { setStoreMovedTo, storeMovedSchema, storeMovedTo } from "./store-moved";

/**
 * The creator's export (signed in; never gated by the plan or by enforcement: docs/export-format.md):
 * `GET`/`POST /api/store-export`, and the emailed link `GET /store-export/{token}` that streams the archive.
 */
export function registerStoreExportRoutes(
  app: FastifyInstance,
  deps: StoreExportDeps & { auth: Auth; events: EventBus },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/store-export",
    { schema: { response: { 200: storeExportStateSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      reply.header("cache-control", "no-store");
      return storeExportState(deps, seller.id, deps.now());
    },
  );

  api.post(
    "/api/store-export",
    { schema: { response: { 202: storeExportStateSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      return reply.status(202).send(await startStoreExport(deps, seller.id, deps.now()));
    },
  );

  api.get(
    "/api/store-export/moved-to",
    { schema: { response: { 200: storeMovedSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      reply.header("cache-control", "no-store");
      return storeMovedTo(deps.db, seller.id);
    },
  );

  api.put(
    "/api/store-export/moved-to",
    { schema: { body: storeMovedSchema, response: { 200: storeMovedSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return setStoreMovedTo(deps, seller.id, request.body.movedTo);
    },
  );

  app.get<{ Params: { token: string } }>("/store-export/:token", async (request, reply) => {
    const archive = await exportArchiveOf(deps, request.params.token);
    // The address carries the link's token: never sent on to another site.
    reply
      .header("referrer-policy", "no-referrer")
      .header("content-disposition", attachmentDisposition(archive.fileName));
    return sendObject(
      request,
      reply,
      deps.storage,
      {
        bucket: "store-exports",
        key: archive.key,
        contentType: "application/zip",
        cacheControl: "private, no-store",
      },
      STORE_EXPORT_MESSAGES.linkExpired,
    );
  });
}
