import type { FastifyReply } from "fastify";
import { translator } from "../../../contracts/i18n/translator";
import { Button, CreatorPageShell, StoreNotFoundPage, useI18n } from "../../../web/server-rendered";
import { buyerLocale } from "../../http/buyer-locale";
import type { PublicPageDeps } from "./public-page-deps";
import { renderDocument } from "./render-document";

/**
 * A missing product or store: a real 404 with a way home (not a redirect, which would tell a search
 * engine or a shared link nothing), in the buyer's language. Not kept by any cache: it may exist a
 * moment later.
 */
export function sendNotFoundPage(deps: PublicPageDeps, reply: FastifyReply, what: "product" | "store") {
  const locale = buyerLocale(reply.request, reply);
  const title = translator(locale).t(what === "product" ? "notFound.product.title" : "notFound.store.title");
  const html = renderDocument({
    assets: deps.assets,
    path: reply.request.url,
    headTags: `<title>${title} · Flatfee</title>\n    <meta name="robots" content="noindex" />`,
    page: what === "product" ? <ProductNotFoundPage /> : <StoreNotFoundPage />,
    locale,
  });
  return reply.status(404).header("cache-control", "no-cache").type("text/html; charset=utf-8").send(html);
}

/**
 * As the app's own 404 page (features/errors/not-found-page.tsx), in the frame of a creator's pages
 * (whose product it was is unknown): a buyer's page, in the buyer's language, with the switcher.
 */
export function ProductNotFoundPage() {
  const { t } = useI18n();
  return (
    <CreatorPageShell creator={null} languageSwitcher>
      <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-20 text-center">
        <p className="text-7xl font-bold tracking-tight text-brand-600">404</p>
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-ink">{t("notFound.product.title")}</h1>
        <p className="mt-3 text-muted">{t("notFound.product.body")}</p>
        <Button asChild size="lg" className="mt-8">
          <a href="/">{t("notFound.returnHome")}</a>
        </Button>
      </section>
    </CreatorPageShell>
  );
}

export const sendProductNotFound = (deps: PublicPageDeps, reply: FastifyReply) =>
  sendNotFoundPage(deps, reply, "product");
