import type { FastifyReply } from "fastify";
import type { ReactElement } from "react";
import { Button, PublicPageShell } from "../../../web/server-rendered";
import type { PublicPageDeps } from "./public-page-deps";
import { renderDocument } from "./render-document";

/**
 * A missing product or store: a real 404 with a way home (not a redirect, which would tell a search
 * engine or a shared link nothing). Not kept by any cache: it may exist a moment later.
 */
export function sendNotFoundPage(
  deps: PublicPageDeps,
  reply: FastifyReply,
  path: string,
  title: string,
  page: ReactElement,
) {
  const html = renderDocument({
    assets: deps.assets,
    path,
    headTags: `<title>${title} · Flatfee</title>\n    <meta name="robots" content="noindex" />`,
    page,
  });
  return reply.status(404).header("cache-control", "no-cache").type("text/html; charset=utf-8").send(html);
}

/** As the app's own 404 page (features/errors/not-found-page.tsx), without script. */
export function ProductNotFoundPage() {
  return (
    <PublicPageShell>
      <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-20 text-center">
        <p className="text-7xl font-bold tracking-tight text-brand-600">404</p>
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-ink">Product not found</h1>
        <p className="mt-3 text-muted">This product does not exist or is no longer available.</p>
        <Button asChild size="lg" className="mt-8">
          <a href="/">Return to Home</a>
        </Button>
      </section>
    </PublicPageShell>
  );
}

export function sendProductNotFound(deps: PublicPageDeps, reply: FastifyReply, productId: string) {
  return sendNotFoundPage(deps, reply, `/product/${productId}`, "Product not found", <ProductNotFoundPage />);
}
