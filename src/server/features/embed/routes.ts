import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { embedProductsQuerySchema, embedProductsSchema } from "../../../contracts/embed";
import type { ApiErrorBody } from "../../../contracts/errors";
import { translator } from "../../../contracts/i18n/translator";
import type { Database } from "../../db/database";
import { requestedCurrency } from "../../http/buyer-currency";
import { requestedLocale } from "../../http/buyer-locale";
import { clientHolds } from "../../http/etag";
import { getEmbedProducts } from "./embed-products";
import type { EmbedScript } from "./embed-script";

/**
 * The script's address never changes (creators paste it once), so it cannot be cached forever: five
 * minutes fresh, then revalidated with its ETag (a 304), and served stale for a day meanwhile, so a
 * fix reaches every site within minutes and a page never waits for the check.
 */
const SCRIPT_CACHE = "public, max-age=300, stale-while-revalidate=86400";
/** Prices and stock a minute old at worst: the overlay shows the live page before anyone pays. */
const PRODUCTS_CACHE = "public, max-age=30, s-maxage=30";

/** Any site may load these: no cookie is read or sent, and nothing is changed. */
function allowAnySite(reply: FastifyReply) {
  reply.header("access-control-allow-origin", "*").header("cross-origin-resource-policy", "cross-origin");
}

/**
 * The embeddable buy button (docs/embed.md): the script other sites load, and the one public request
 * it makes for all the buttons of a page. The framed product page is a public page (public-pages/embed-page.tsx).
 */
export function registerEmbedRoutes(
  app: FastifyInstance,
  deps: {
    db: Database;
    now: () => Date;
    script: EmbedScript | null;
    buyerCountryHeader?: string | undefined;
  },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/embed.js", async (request, reply) => {
    allowAnySite(reply);
    const { script } = deps;
    if (!script) {
      return reply.status(503).send({
        code: "web_app_not_built",
        message: "The embed script is not built yet: run `npm run build`.",
        requestId: String(request.id),
      } satisfies ApiErrorBody);
    }
    reply.header("cache-control", SCRIPT_CACHE).header("etag", script.etag);
    if (clientHolds(request, script.etag)) {
      return reply.status(304).send();
    }
    return reply.type("text/javascript; charset=utf-8").send(script.code);
  });

  api.get(
    "/api/embed/products",
    {
      // Before validation, so a refusal can be read by the page that asked too.
      onRequest: async (_request, reply) => allowAnySite(reply),
      schema: { querystring: embedProductsQuerySchema, response: { 200: embedProductsSchema } },
    },
    async (request, reply) => {
      // Priced and worded for the visitor (the script sends no cookie: their browser's language, the
      // country a proxy names, Accept-Language's region), so a shared cache keeps one answer per each.
      const locale = requestedLocale(request) ?? "en";
      const currency = requestedCurrency(request, deps.buyerCountryHeader);
      reply
        .header("cache-control", PRODUCTS_CACHE)
        .header("vary", ["Accept-Language", deps.buyerCountryHeader].filter(Boolean).join(", "));
      const products = await getEmbedProducts(deps.db, request.query.ids, deps.now(), { locale, currency });
      return { products, buyLabel: translator(locale).t("embed.buyNow") };
    },
  );
}
