import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { productStampingSchema } from "../../../contracts/pdf-stamps";
import type { Database } from "../../db/database";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { productStamping } from "./product-stamping";

const productParams = z.object({ id: z.string().min(1).max(64) });

/** Stamped PDFs: the edit page's view of a product's stamping. The stamps are jobs (stamp-queue.ts). */
export function registerPdfStamps(
  app: FastifyInstance,
  deps: {
    db: Database;
    auth: Auth;
  },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    "/api/products/:id/pdf-stamps",
    { schema: { params: productParams, response: { 200: productStampingSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return productStamping(deps.db, seller.id, request.params.id);
    },
  );
}
