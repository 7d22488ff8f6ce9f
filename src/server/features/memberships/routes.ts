import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  cancelMembershipSchema,
  memberSchema,
  membersCsvFileName,
  membershipChangeConfirmSchema,
  membershipChangePreviewSchema,
  membershipChangeSchema,
  membersPageSchema,
  membersQuerySchema,
  refundLastPaymentSchema,
} from "../../../contracts/memberships";
import { redirectSchema } from "../../../contracts/seller";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { isTimeZone } from "../../http/csv";
import { badRequest } from "../../http/errors";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { emailOfLibraryLink, libraryPath } from "../orders";
import { confirmMembershipChange, previewMembershipChange } from "./change-membership";
import { openMembershipPortal } from "./manage-membership";
import { cancelMembership, refundLastPayment } from "./member-actions";
import { membersPage } from "./members";
import { membersCsv } from "./members-csv";
import type { MembershipDeps } from "./membership-changes";

export type MembershipRouteDeps = MembershipDeps & {
  db: Database;
  events: EventBus;
  auth: Auth;
  now: () => Date;
};

const memberParams = z.object({ membershipId: z.string().min(1).max(64) });

/** A member's own actions, authorized by their library link (the email it was signed for). */
export function registerMembershipRoutes(app: FastifyInstance, deps: MembershipRouteDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/library/memberships/:membershipId/portal",
    {
      schema: {
        params: z.object({ membershipId: z.string().min(1).max(64) }),
        body: z.object({ token: z.string().min(1).max(2000) }),
        response: { 200: redirectSchema },
      },
    },
    async (request) => {
      const email = emailOfLibraryLink(deps.linkKey, request.body.token, deps.now());
      const returnUrl = `${deps.appUrl}${libraryPath(request.body.token)}`;
      return { url: await openMembershipPortal(deps, request.params.membershipId, email, returnUrl) };
    },
  );

  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/library/memberships/:membershipId/change-preview",
    {
      schema: {
        params: z.object({ membershipId: z.string().min(1).max(64) }),
        body: membershipChangeSchema,
        response: { 200: membershipChangePreviewSchema },
      },
    },
    async (request) => {
      const { token, tierId, interval } = request.body;
      const email = emailOfLibraryLink(deps.linkKey, token, deps.now());
      return previewMembershipChange(deps, request.params.membershipId, email, { tierId, interval });
    },
  );
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/library/memberships/:membershipId/change",
    {
      schema: {
        params: z.object({ membershipId: z.string().min(1).max(64) }),
        body: membershipChangeConfirmSchema,
      },
    },
    async (request, reply) => {
      const { token, ...choice } = request.body;
      const email = emailOfLibraryLink(deps.linkKey, token, deps.now());
      await confirmMembershipChange(deps, request.params.membershipId, email, choice);
      return reply.status(204).send();
    },
  );
  registerMemberRoutes(app, deps);
}

/** The seller's members page: the list, its CSV, and cancelling or refunding a member. */
function registerMemberRoutes(app: FastifyInstance, deps: MembershipRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    "/api/memberships",
    { schema: { querystring: membersQuerySchema, response: { 200: membersPageSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return membersPage(deps.db, seller.id, request.query, deps.now());
    },
  );
  api.get(
    "/api/memberships/export.csv",
    {
      schema: {
        querystring: membersQuerySchema.omit({ limit: true, before: true }).extend({
          tz: z.string().max(64).default("UTC"),
        }),
      },
    },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      const { tz, ...filter } = request.query;
      if (!isTimeZone(tz)) throw badRequest("Unknown time zone");
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${membersCsvFileName(deps.now(), tz)}"`)
        .header("cache-control", "no-store")
        .send(membersCsv(deps.db, seller.id, filter, tz, deps.now()));
    },
  );
  api.post(
    "/api/memberships/:membershipId/cancel",
    { schema: { params: memberParams, body: cancelMembershipSchema, response: { 200: memberSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return cancelMembership(deps, seller.id, request.params.membershipId, request.body.when);
    },
  );
  api.post(
    "/api/memberships/:membershipId/refund-last-payment",
    { schema: { params: memberParams, body: refundLastPaymentSchema, response: { 200: memberSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return refundLastPayment(deps, seller.id, request.params.membershipId, request.body.endAccess);
    },
  );
}
