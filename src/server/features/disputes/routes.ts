import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type Stripe from "stripe";
import { z } from "zod";
import { disputeDraftSchema, disputeSubmitSchema, disputeViewSchema } from "../../../contracts/disputes";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { disputeView, evidencePdf, saveDisputeDraft, submitDispute } from "./dispute-page";

export interface DisputeRouteDeps {
  db: Database;
  events: EventBus;
  stripe: Stripe;
  auth: Auth;
  now: () => Date;
}

const params = z.object({ id: z.string().min(1).max(64) });

/** The creator's dispute page: read, the evidence PDF, save the draft (and auto-submit), submit. All seller-scoped. */
export function registerDisputeRoutes(app: FastifyInstance, deps: DisputeRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/disputes/:id",
    { schema: { params, response: { 200: disputeViewSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return disputeView(deps.db, seller.id, request.params.id, deps.now());
    },
  );

  api.get("/api/disputes/:id/evidence.pdf", { schema: { params } }, async (request, reply) => {
    const seller = await requireUser(deps.auth, request);
    const { fileName, pdf } = await evidencePdf(deps.db, seller.id, request.params.id);
    return reply
      .type("application/pdf")
      .header("content-disposition", `inline; filename="${fileName}"`)
      .header("cache-control", "private, no-store")
      .send(pdf);
  });

  api.patch(
    "/api/disputes/:id",
    { schema: { params, body: disputeDraftSchema, response: { 200: disputeViewSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      await saveDisputeDraft(deps, seller.id, request.params.id, request.body);
      return disputeView(deps.db, seller.id, request.params.id, deps.now());
    },
  );

  api.post(
    "/api/disputes/:id/submit",
    { schema: { params, body: disputeSubmitSchema, response: { 200: disputeViewSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return submitDispute(deps, seller.id, request.params.id, request.body.evidence, "creator");
    },
  );
}
