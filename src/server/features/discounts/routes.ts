import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  discountCodeListSchema,
  discountCodeSchema,
  productPriceQuerySchema,
  productPriceSchema,
  updateDiscountCodeSchema,
} from "../../../contracts/discounts";
import type { Database } from "../../db/database";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { allowCodeTry } from "./code-tries";
import { deleteDiscountCode } from "./delete-discount-code";
import { quoteProductPrice } from "./evaluate-discount-code";
import { listDiscountCodes } from "./list-discount-codes";
import { createDiscountCode, updateDiscountCode } from "./save-discount-code";

export interface DiscountRouteDeps {
  db: Database;
  auth: Auth;
  now: () => Date;
}

const codeParams = z.object({ id: z.string().min(1).max(64) });

/** The seller's discount codes (their own only: another seller's code is a 404), and a code's price on a product page. */
export function registerDiscountRoutes(app: FastifyInstance, deps: DiscountRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/discount-codes",
    { schema: { response: { 200: discountCodeListSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return { codes: await listDiscountCodes(deps.db, seller.id, deps.now()) };
    },
  );

  // The body is checked by the use case, which names every wrong field for the form.
  api.post(
    "/api/discount-codes",
    { schema: { body: z.record(z.string(), z.unknown()), response: { 201: discountCodeSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      return reply.status(201).send(await createDiscountCode(deps.db, seller.id, request.body, deps.now()));
    },
  );

  api.patch(
    "/api/discount-codes/:id",
    { schema: { params: codeParams, body: updateDiscountCodeSchema, response: { 200: discountCodeSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return updateDiscountCode(deps.db, seller.id, request.params.id, request.body, deps.now());
    },
  );

  api.delete("/api/discount-codes/:id", { schema: { params: codeParams } }, async (request, reply) => {
    const seller = await requireUser(deps.auth, request);
    await deleteDiscountCode(deps.db, seller.id, request.params.id);
    return reply.status(204).send();
  });

  api.get(
    "/api/products/:id/price",
    {
      schema: {
        params: codeParams,
        querystring: productPriceQuerySchema,
        response: { 200: productPriceSchema },
      },
    },
    async (request) => {
      const code = await allowCodeTry(deps.db, request, request.query.code, deps.now());
      return quoteProductPrice(deps.db, request.params.id, code, deps.now());
    },
  );
}
