import type { FastifyInstance } from "fastify";
import type { PublicPageDeps } from "./public-page-deps";
import { sitemapXml } from "./sitemap";

/**
 * Search engines may read the marketing and creator pages (listed in the sitemap); a buyer's success,
 * download and library pages (which carry private links), the seller's own pages and the operator
 * console are not for them.
 */
const robotsTxt = (appUrl: string) => `User-agent: *
Allow: /
Disallow: /api/
Disallow: /success
Disallow: /download/
Disallow: /library
Disallow: /files/
Disallow: /dashboard
Disallow: /new
Disallow: /settings
Disallow: /operator

Sitemap: ${appUrl}/sitemap.xml
`;

/** robots.txt and the sitemap, for search engines. */
export function registerSiteFiles(app: FastifyInstance, deps: PublicPageDeps): void {
  const robots = robotsTxt(deps.appUrl);
  app.get("/robots.txt", async (_request, reply) =>
    reply.type("text/plain; charset=utf-8").header("cache-control", "public, max-age=86400").send(robots),
  );

  app.get("/sitemap.xml", async (_request, reply) =>
    reply
      .type("application/xml; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(await sitemapXml(deps.db, deps.appUrl, deps.now())),
  );
}
