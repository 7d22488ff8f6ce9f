import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  createProductBodySchema,
  PRODUCT_LIMITS,
  publicProductSchema,
  sellerProductDetailSchema,
  sellerProductListSchema,
  sellerProductSchema,
  updateProductBodySchema,
} from "../../../contracts/products";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { createProduct, type ProductDeps } from "./create-product";
import { deleteProduct } from "./delete-product";
import { listSellerProducts } from "./list-seller-products";
import { getPublicProduct } from "./public-product";
import { getSellerProduct } from "./seller-product";
import { type UpdateProductDeps, updateProduct } from "./update-product";

const productParams = z.object({ id: z.string().min(1).max(64) });
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(PRODUCT_LIMITS.recentProducts),
});

export function registerProductRoutes(
  app: FastifyInstance,
  deps: ProductDeps & UpdateProductDeps & { auth: Auth; now: () => Date },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/api/products",
    { schema: { body: createProductBodySchema, response: { 201: sellerProductSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      const product = await createProduct(deps, seller.id, request.body, deps.now());
      return reply.status(201).send(product);
    },
  );

  api.get(
    "/api/products",
    { schema: { querystring: listQuery, response: { 200: sellerProductListSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return listSellerProducts(deps.db, seller.id, request.query.limit);
    },
  );

  api.get(
    "/api/products/:id",
    { schema: { params: productParams, response: { 200: sellerProductDetailSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return getSellerProduct(deps.db, seller.id, request.params.id);
    },
  );

  api.patch(
    "/api/products/:id",
    {
      schema: {
        params: productParams,
        body: updateProductBodySchema,
        response: { 200: sellerProductDetailSchema },
      },
    },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return updateProduct(deps, seller.id, request.params.id, request.body, deps.now());
    },
  );

  api.delete("/api/products/:id", { schema: { params: productParams } }, async (request, reply) => {
    const seller = await requireUser(deps.auth, request);
    await deleteProduct(deps, seller.id, request.params.id);
    return reply.status(204).send();
  });

  api.get(
    "/api/public/products/:id",
    { schema: { params: productParams, response: { 200: publicProductSchema } } },
    async (request) => getPublicProduct(deps.db, request.params.id, deps.now()),
  );
}
