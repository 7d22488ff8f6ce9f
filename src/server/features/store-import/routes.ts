import type { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  attachProductFilesSchema,
  createImportSchema,
  type ImportPlatformName,
  importEmailPreviewSchema,
  productZipResultSchema,
  runImportSchema,
  storeImportSchema,
} from "../../../contracts/store-import";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { assertCanManageProducts } from "../billing";
import { assertMayAddProducts } from "../enforcement";
import type { VirusScanner } from "../uploads";
import { attachZip, type ZipTarget } from "./attach-zip";
import { addImportFile, createImport, deleteImport, removeImportFile, sellerImport } from "./import-files";
import { importEmailPreview, startCheck, startRun } from "./import-lifecycle";
import { attachProductFiles, importView, listImports } from "./import-view";
import { resubscribeCsv } from "./resubscribe-list";

export interface StoreImportRouteDeps {
  db: Database;
  storage: Storage;
  auth: Auth;
  appUrl: string;
  now: () => Date;
  virusScanner?: VirusScanner;
}

const importParams = z.object({ importId: z.string().min(1).max(100) });
const fileParams = importParams.extend({ fileId: z.string().min(1).max(100) });
const productParams = importParams.extend({ externalId: z.string().min(1).max(300) });
const fileNameQuery = z.object({ name: z.string().trim().min(1).max(255) });

/** The import page's API (docs/store-import.md): every route is the signed-in seller's, another's import is 404. */
export function registerStoreImportRoutes(app: FastifyInstance, deps: StoreImportRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const seller = async (request: Parameters<typeof requireUser>[1]) =>
    (await requireUser(deps.auth, request)).id;

  api.get("/api/store-imports", async (request, reply) => {
    reply.header("cache-control", "no-store");
    return { imports: await listImports(deps.db, await seller(request)) };
  });

  api.post(
    "/api/store-imports",
    { schema: { body: createImportSchema, response: { 201: storeImportSchema } } },
    async (request, reply) => {
      const sellerId = await seller(request);
      const id = await createImport(deps.db, sellerId, request.body.platform, deps.now());
      return reply.status(201).send(await importView(deps.db, sellerId, id));
    },
  );

  api.get(
    "/api/store-imports/:importId",
    { schema: { params: importParams, response: { 200: storeImportSchema } } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return importView(deps.db, await seller(request), request.params.importId);
    },
  );

  api.delete("/api/store-imports/:importId", { schema: { params: importParams } }, async (request, reply) => {
    await deleteImport(deps, await seller(request), request.params.importId);
    return reply.status(204).send();
  });

  // The export file's bytes, streamed to storage as they arrive (never buffered): a raw body of any type.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
    scope
      .withTypeProvider<ZodTypeProvider>()
      .put(
        "/api/store-imports/:importId/files",
        { schema: { params: importParams, querystring: fileNameQuery } },
        async (request, reply) => {
          const sellerId = await seller(request);
          const file = await addImportFile(
            deps,
            sellerId,
            request.params.importId,
            request.query.name,
            request.body as Readable,
          );
          return reply.status(201).send(file);
        },
      );

    // A ZIP of products' files, streamed to storage, then unpacked into checked product-file uploads.
    const zipRoute = async (
      request: Parameters<typeof requireUser>[1] & { query: { name: string }; body: unknown },
      importId: string,
      target: ZipTarget,
    ) => {
      const sellerId = await seller(request);
      const result = await attachZip(
        deps,
        sellerId,
        importId,
        target,
        request.query.name,
        request.body as Readable,
      );
      return { import: await importView(deps.db, sellerId, importId), ...result };
    };
    scope.withTypeProvider<ZodTypeProvider>().put(
      "/api/store-imports/:importId/products/:externalId/zip",
      {
        schema: {
          params: productParams,
          querystring: fileNameQuery,
          response: { 200: productZipResultSchema },
        },
      },
      (request) => zipRoute(request, request.params.importId, { product: request.params.externalId }),
    );
    scope.withTypeProvider<ZodTypeProvider>().put(
      "/api/store-imports/:importId/products-zip",
      {
        schema: {
          params: importParams,
          querystring: fileNameQuery,
          response: { 200: productZipResultSchema },
        },
      },
      (request) => zipRoute(request, request.params.importId, "all"),
    );
  });

  api.delete(
    "/api/store-imports/:importId/files/:fileId",
    { schema: { params: fileParams } },
    async (request, reply) => {
      await removeImportFile(deps, await seller(request), request.params.importId, request.params.fileId);
      return reply.status(204).send();
    },
  );

  api.post(
    "/api/store-imports/:importId/check",
    { schema: { params: importParams, response: { 202: storeImportSchema } } },
    async (request, reply) => {
      const sellerId = await seller(request);
      await startCheck(deps.db, sellerId, request.params.importId);
      return reply.status(202).send(await importView(deps.db, sellerId, request.params.importId));
    },
  );

  api.put(
    "/api/store-imports/:importId/products/:externalId/files",
    {
      schema: { params: productParams, body: attachProductFilesSchema, response: { 200: storeImportSchema } },
    },
    async (request) => {
      const sellerId = await seller(request);
      const { importId, externalId } = request.params;
      await attachProductFiles(deps.db, sellerId, importId, externalId, request.body.uploadIds);
      return importView(deps.db, sellerId, importId);
    },
  );

  api.post(
    "/api/store-imports/:importId/run",
    { schema: { params: importParams, body: runImportSchema, response: { 202: storeImportSchema } } },
    async (request, reply) => {
      const sellerId = await seller(request);
      const now = deps.now();
      // What creating products needs (the plan, payouts, a store allowed new products), said before anything starts.
      await assertCanManageProducts(deps.db, sellerId, now);
      await assertMayAddProducts(deps.db, sellerId);
      await startRun(deps.db, sellerId, request.params.importId, request.body.notifyBuyers, now);
      return reply.status(202).send(await importView(deps.db, sellerId, request.params.importId));
    },
  );

  api.get(
    "/api/store-imports/:importId/resubscribes.csv",
    { schema: { params: importParams } },
    async (request, reply) => {
      const csv = await resubscribeCsv(deps.db, await seller(request), request.params.importId);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="members-to-invite.csv"')
        .header("cache-control", "no-store")
        .send(csv);
    },
  );

  api.get(
    "/api/store-imports/:importId/email-preview",
    { schema: { params: importParams, response: { 200: importEmailPreviewSchema } } },
    async (request) => {
      const sellerId = await seller(request);
      const row = await sellerImport(deps.db, sellerId, request.params.importId);
      return importEmailPreview(deps.db, sellerId, row.platform as ImportPlatformName, deps.appUrl);
    },
  );
}
