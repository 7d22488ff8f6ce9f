import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  completedUploadSchema,
  createUploadRequestSchema,
  STORAGE_QUOTA_BYTES,
  storageUsageSchema,
  uploadIntentSchema,
} from "../../../contracts/uploads";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import type { VirusScanner } from "./clamav";
import { completeUpload } from "./complete-upload";
import { createUploadIntent } from "./create-upload-intent";
import { deleteUnusedUpload } from "./delete-upload";
import { type FileLinkGates, registerFileRoutes } from "./file-routes";
import { storageUsedBytes, uploadLinkOpen } from "./queries";

export interface UploadRouteDeps {
  db: Database;
  storage: Storage;
  auth: Auth;
  /** clamd (see clamdScanner) when CLAMD_URL is set. */
  virusScanner?: VirusScanner;
  /** What the local driver's signed links must still satisfy when they are used. */
  fileLinkGates?: FileLinkGates;
}

const uploadParams = z.object({ id: z.string().min(1).max(100) });

/** Upload intents and their completion (signed-in sellers), plus the file routes (token or public). */
export function registerUploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/api/uploads",
    { schema: { body: createUploadRequestSchema, response: { 201: uploadIntentSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      return reply.status(201).send(await createUploadIntent(deps, seller.id, request.body));
    },
  );

  api.post(
    "/api/uploads/:id/complete",
    { schema: { params: uploadParams, response: { 200: completedUploadSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return completeUpload(deps, seller.id, request.params.id);
    },
  );

  api.delete("/api/uploads/:id", { schema: { params: uploadParams } }, async (request, reply) => {
    const seller = await requireUser(deps.auth, request);
    await deleteUnusedUpload(deps, seller.id, request.params.id);
    return reply.status(204).send();
  });

  api.get("/api/uploads/usage", { schema: { response: { 200: storageUsageSchema } } }, async (request) => {
    const seller = await requireUser(deps.auth, request);
    return { usedBytes: await storageUsedBytes(deps.db, seller.id), quotaBytes: STORAGE_QUOTA_BYTES };
  });

  registerFileRoutes(app, deps.storage, {
    ...deps.fileLinkGates,
    // A signed link stays valid for its lifetime; it must not write once its upload is being checked, done or gone.
    uploadAccepts: (claims) => uploadLinkOpen(deps.db, claims.key),
  });
}
