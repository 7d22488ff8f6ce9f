import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  postEmailsRequestSchema,
  postEmailsSchema,
  postInputSchema,
  postListQuerySchema,
  postListSchema,
  postProductsSchema,
  postUpdateSchema,
  sellerPostSchema,
} from "../../../contracts/posts";
import type { Database } from "../../db/database";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { emailOfLibraryLink } from "../orders";
import { createPost } from "./create-post";
import { deletePost } from "./delete-post";
import { listPosts, postProducts } from "./list-posts";
import { setPostEmails } from "./member-post-emails";
import { updatePost } from "./update-post";

export interface PostRouteDeps {
  db: Database;
  auth: Auth;
  linkKey: string;
  now: () => Date;
}

const postParams = z.object({ id: z.string().min(1).max(64) });

/**
 * The seller's posts to their members (the Posts section), and a member's "Email me new posts",
 * authorized by their library link as Manage membership is.
 */
export function registerPostRoutes(app: FastifyInstance, deps: PostRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/posts/products", { schema: { response: { 200: postProductsSchema } } }, async (request) => {
    const seller = await requireUser(deps.auth, request);
    return postProducts(deps.db, seller.id);
  });

  api.get(
    "/api/posts",
    { schema: { querystring: postListQuerySchema, response: { 200: postListSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return listPosts(deps.db, seller.id, request.query.productId);
    },
  );

  api.post(
    "/api/posts",
    { schema: { body: postInputSchema, response: { 201: sellerPostSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      return reply.status(201).send(await createPost(deps.db, seller.id, request.body, deps.now()));
    },
  );

  api.patch(
    "/api/posts/:id",
    { schema: { params: postParams, body: postUpdateSchema, response: { 200: sellerPostSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return updatePost(deps.db, seller.id, request.params.id, request.body, deps.now());
    },
  );

  api.delete("/api/posts/:id", { schema: { params: postParams } }, async (request, reply) => {
    const seller = await requireUser(deps.auth, request);
    await deletePost(deps.db, seller.id, request.params.id);
    return reply.status(204).send();
  });

  api.post(
    "/api/library/memberships/:membershipId/post-emails",
    {
      schema: {
        params: z.object({ membershipId: z.string().min(1).max(64) }),
        body: postEmailsRequestSchema,
        response: { 200: postEmailsSchema },
      },
    },
    async (request) => {
      const email = emailOfLibraryLink(deps.linkKey, request.body.token, deps.now());
      return setPostEmails(deps.db, request.params.membershipId, email, request.body.enabled);
    },
  );
}
