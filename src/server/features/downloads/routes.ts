import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  downloadPageSchema,
  downloadStartRequestSchema,
  downloadStartSchema,
  ORDER_MESSAGES,
  resendLinkSchema,
} from "../../../contracts/orders";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Outbox } from "../../adapters/mail/outbox";
import { requestedLocale } from "../../http/buyer-locale";
import { requesterOf } from "../../http/requester";
import { type DownloadDeps, describeDownload, startCountedDownload } from "./download-link";
import { resendDownloadLink } from "./resend-link";

const tokenParams = z.object({ token: z.string().min(1).max(2000) });

export function registerDownloadRoutes(
  app: FastifyInstance,
  deps: DownloadDeps & {
    outbox: Outbox;
    appUrl: string;
    events: EventBus;
    now: () => Date;
    /** The proxy's country header (BUYER_COUNTRY_HEADER): each download's log keeps the country it says. */
    buyerCountryHeader?: string;
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/downloads/:token",
    { schema: { params: tokenParams, response: { 200: downloadPageSchema } } },
    async (request) => describeDownload(deps, request.params.token, deps.now()),
  );

  api.post(
    "/api/downloads/:token",
    {
      schema: {
        params: tokenParams,
        // A request with no body (older clients, one-file products) has a null one.
        body: downloadStartRequestSchema.nullish(),
        response: { 200: downloadStartSchema },
      },
    },
    async (request) =>
      startCountedDownload(
        deps,
        request.params.token,
        request.body?.fileId,
        requesterOf(request, deps.buyerCountryHeader),
      ),
  );

  api.post(
    "/api/download-links/resend",
    { schema: { body: resendLinkSchema, response: { 200: z.object({ message: z.string() }) } } },
    async (request) => {
      const locale = requestedLocale(request);
      await resendDownloadLink(deps, { ...request.body, ip: request.ip, locale }, deps.now());
      return { message: ORDER_MESSAGES.resendSent };
    },
  );
}
