import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { LOCALE_PARAM } from "../../../contracts/i18n/locales";
import {
  libraryResponseSchema,
  SALES_PAGE_SIZE,
  salesCsvFileName,
  salesPageSchema,
  successLookupSchema,
} from "../../../contracts/orders";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { buyerLocale } from "../../http/buyer-locale";
import { isTimeZone } from "../../http/csv";
import { badRequest } from "../../http/errors";
import { type SellerAnswers, sendSellerAnswer } from "../../http/seller-answers";
import { requireUser, webHeaders } from "../../http/session";
import type { Auth } from "../auth";
import type { FulfilmentDeps } from "./fulfil-checkout";
import { libraryByLink, libraryOfAccount, verifyEmailByLibraryLink } from "./library";
import { lookupSuccessOrder } from "./lookup-by-session";
import { resetDownloads, salesPage } from "./sales";
import { salesCsv } from "./sales-csv";

export type OrderRouteDeps = FulfilmentDeps & {
  db: Database;
  auth: Auth;
  events: EventBus;
  answers: SellerAnswers;
  now: () => Date;
};

/** The language switcher's `?lang=` (buyerLocale reads it; one we do not speak is ignored). */
const localeParam = z.string().max(20).optional();

const orderParams = z.object({ id: z.string().min(1).max(64) });
export function registerOrderRoutes(app: FastifyInstance, deps: OrderRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/orders/by-session/:sessionId",
    {
      schema: {
        params: z.object({ sessionId: z.string().min(1).max(200) }),
        response: { 200: successLookupSchema },
      },
    },
    async (request) => lookupSuccessOrder(deps, request.params.sessionId, request.ip),
  );

  api.get(
    "/api/library",
    {
      schema: {
        querystring: z.object({ token: z.string().max(2000), [LOCALE_PARAM]: localeParam }),
        response: { 200: libraryResponseSchema },
      },
    },
    async (request, reply) => {
      // The library's language, chosen as every buyer page's is (docs/i18n.md); a `?lang=` is remembered
      // in the cookie, even when the link no longer works.
      const locale = buyerLocale(request, reply);
      const library = await libraryByLink(deps.db, deps.linkKey, request.query.token, deps.now());
      const session = await deps.auth.api.getSession({ headers: webHeaders(request) });
      await verifyEmailByLibraryLink(deps.db, session?.user, library.email);
      return { ...library, locale };
    },
  );

  api.get(
    "/api/library/me",
    {
      schema: {
        querystring: z.object({ [LOCALE_PARAM]: localeParam }),
        response: { 200: libraryResponseSchema },
      },
    },
    async (request, reply) => {
      const locale = buyerLocale(request, reply);
      // From the database, not the session cookie's cached copy: opening a library link may have just
      // verified the email.
      const session = await deps.auth.api.getSession({
        headers: webHeaders(request),
        query: { disableCookieCache: true },
      });
      const library = await libraryOfAccount(deps.db, deps.linkKey, session?.user, deps.now());
      return { ...library, locale };
    },
  );

  api.get(
    "/api/orders",
    {
      schema: {
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(100).default(SALES_PAGE_SIZE),
          before: z.string().max(200).optional(),
        }),
        response: { 200: salesPageSchema },
      },
    },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      const { limit, before } = request.query;
      // The first page is what every open dashboard asks for after each sale: kept until the next event.
      if (before) return salesPage(deps.db, seller.id, limit, before);
      return sendSellerAnswer(request, reply, deps.answers, {
        sellerId: seller.id,
        key: `sales:${limit}`,
        schema: salesPageSchema,
        compute: () => salesPage(deps.db, seller.id, limit),
      });
    },
  );

  api.get(
    "/api/orders/export.csv",
    { schema: { querystring: z.object({ tz: z.string().max(64).default("UTC") }) } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      if (!isTimeZone(request.query.tz)) throw badRequest("Unknown time zone");
      return reply
        .type("text/csv; charset=utf-8")
        .header(
          "content-disposition",
          `attachment; filename="${salesCsvFileName(deps.now(), request.query.tz)}"`,
        )
        .header("cache-control", "no-store")
        .send(salesCsv(deps.db, seller.id, request.query.tz));
    },
  );

  api.post("/api/orders/:id/reset-downloads", { schema: { params: orderParams } }, async (request, reply) => {
    const seller = await requireUser(deps.auth, request);
    await resetDownloads(deps, seller.id, request.params.id);
    return reply.status(204).send();
  });
}
