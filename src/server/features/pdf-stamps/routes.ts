import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { productStampingSchema } from "../../../contracts/pdf-stamps";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth/auth";
import { productStamping } from "./product-stamping";
import { PdfStampWorker } from "./stamp-worker";

const productParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Stamped PDFs: the edit page's view of a product's stamping, and the background worker that makes
 * the stamps (started unless `background` is false: tests then run rounds themselves).
 */
export function registerPdfStamps(
  app: FastifyInstance,
  deps: {
    db: Database;
    storage: Storage;
    auth: Auth;
    events: EventBus;
    now: () => Date;
    log: StampLog;
    background: boolean;
  },
): PdfStampWorker {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    "/api/products/:id/pdf-stamps",
    { schema: { params: productParams, response: { 200: productStampingSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return productStamping(deps.db, seller.id, request.params.id);
    },
  );

  const worker = new PdfStampWorker({ db: deps.db, storage: deps.storage, log: deps.log }, deps.now);
  if (deps.background) worker.start(deps.events);
  // Before the database closes (shutdown.ts closes the HTTP server first).
  app.addHook("onClose", () => worker.stop());
  return worker;
}

type StampLog = ConstructorParameters<typeof PdfStampWorker>[0]["log"];
