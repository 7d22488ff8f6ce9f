import type { FastifyReply } from "fastify";
import { translator } from "../../../contracts/i18n/translator";
import { Button, CreatorPageShell, StoreNotFoundPage, useI18n } from "../../../web/server-rendered";
import { buyerLocale } from "../../http/buyer-locale";
import { AppError } from "../../http/errors";
import type { PublicPageDeps } from "./public-page-deps";
import { renderDocument } from "./render-document";

/**
 * A missing product or store: a real 404 with a way home (not a redirect, which would tell a search
 * engine or a shared link nothing), in the buyer's language. Not kept by any cache: it may exist a
 * moment later.
 */
export function sendNotFoundPage(
  deps: Pick<PublicPageDeps, "assets">,
  reply: FastifyReply,
  what: "product" | "store",
) {
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

/** Which page an operator's action made unavailable (a suspended store, a taken-down product), if any. */
export function unavailableOf(error: unknown): "store" | "product" | null {
  if (!(error instanceof AppError)) return null;
  if (error.code === "store_unavailable") return "store";
  if (error.code === "product_unavailable") return "product";
  return null;
}

/** As nullWhenNotFound, for pages that show nothing of an unavailable product either (the embed frame). */
export function nullWhenMissingOrUnavailable(error: unknown): null {
  if (unavailableOf(error) || (error instanceof AppError && error.status === 404)) return null;
  throw error;
}

/**
 * A suspended store's pages, or a taken-down product's: "This store is unavailable" (or product), in the
 * buyer's language, with a link to the enforcement policy. 403, never kept: the store may be reinstated
 * at any moment. (403 rather than 451: 451 says a legal demand blocked the page, and most actions enforce
 * our own rules; 404 and 451 may be kept by caches by default, 403 not. docs/operator.md.)
 */
export function sendUnavailablePage(deps: PublicPageDeps, reply: FastifyReply, what: "store" | "product") {
  const locale = buyerLocale(reply.request, reply);
  const title = translator(locale).t(
    what === "product" ? "unavailable.product.title" : "unavailable.store.title",
  );
  const html = renderDocument({
    assets: deps.assets,
    path: reply.request.url,
    headTags: `<title>${title} · Flatfee</title>\n    <meta name="robots" content="noindex" />`,
    page: <UnavailablePage what={what} />,
    locale,
  });
  return reply.status(403).header("cache-control", "no-store").type("text/html; charset=utf-8").send(html);
}

/** Runs `work` (rendering a page, answering a form); a suspended store or taken-down product gets its unavailable page. */
export async function orUnavailablePage<T>(
  deps: PublicPageDeps,
  reply: FastifyReply,
  work: () => Promise<T>,
): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (error) {
    // A store its creator moved: its pages lead to the new store. 302 and not kept (the creator may undo it).
    if (
      error instanceof AppError &&
      error.code === "store_moved" &&
      typeof error.details?.location === "string"
    )
      return reply.header("cache-control", "no-store").redirect(error.details.location, 302);
    const what = unavailableOf(error);
    if (!what) throw error;
    return sendUnavailablePage(deps, reply, what);
  }
}

export function UnavailablePage({ what }: { what: "store" | "product" }) {
  const { t } = useI18n();
  return (
    <CreatorPageShell creator={null} languageSwitcher>
      <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-20 text-center">
        <h1 className="text-3xl font-bold tracking-tight text-ink">
          {t(what === "product" ? "unavailable.product.title" : "unavailable.store.title")}
        </h1>
        <p className="mt-3 text-muted">
          {t(what === "product" ? "unavailable.product.body" : "unavailable.store.body")}
        </p>
        <p className="mt-6 text-sm">
          <a href="/policy/enforcement" className="font-medium text-brand-700 underline underline-offset-4">
            {t("unavailable.policyLink")}
          </a>
        </p>
        <Button asChild size="lg" className="mt-8">
          <a href="/">{t("notFound.returnHome")}</a>
        </Button>
      </section>
    </CreatorPageShell>
  );
}
