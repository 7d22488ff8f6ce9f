import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { redirectSchema } from "../../../contracts/seller";
import type { Database } from "../../db/database";
import { emailOfLibraryLink, libraryPath } from "../orders";
import { openMembershipPortal } from "./manage-membership";
import type { MembershipDeps } from "./membership-changes";

export type MembershipRouteDeps = MembershipDeps & { db: Database; now: () => Date };

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
}
