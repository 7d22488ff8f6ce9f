import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import type { ApiErrorBody } from "../../contracts/errors";
import { isPagePath, movedPageUrl } from "../../web/server-rendered";

const API_PREFIXES = ["/api/", "/dev/", "/files/"];

/**
 * Serves the built web app (dist/web) and answers every other GET with index.html so the
 * client router can take over; the public product and store pages are rendered by the server instead
 * (features/public-pages). A path none of the app's pages answers (src/web/route-paths.ts, the list its
 * router uses) gets index.html with status 404, and the app shows its 404 page: search engines and
 * link checkers see a missing page as missing; a seller page's earlier address answers 301 to its new one
 * (MOVED_PAGE_PATHS). Files are looked up per request, so a rebuild is picked
 * up without a restart. Unknown API routes and missing assets are JSON 404s.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: true,
    index: ["index.html"],
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      // Vite fingerprints assets, so they can be cached forever; index.html must not be.
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });

  const indexFile = path.join(distDir, "index.html");
  app.setNotFoundHandler(async (request, reply) => {
    // A seller page's earlier address (a bookmark, an old link): permanently to where it lives now.
    const moved = request.method === "GET" || request.method === "HEAD" ? movedPageUrl(request.url) : null;
    if (moved) return reply.redirect(moved, 301);
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    const isAsset = request.url.startsWith("/assets/");
    if (request.method !== "GET" || isApi || isAsset) {
      return reply
        .status(404)
        .send({ code: "not_found", message: `No route for ${request.method} ${request.url}` });
    }
    if (!existsSync(indexFile)) {
      return reply.status(503).send({
        code: "web_app_not_built",
        message: "The web app is not built yet: run `npm run build`.",
        requestId: String(request.id),
      } satisfies ApiErrorBody);
    }
    reply.header("cache-control", "no-cache");
    if (isPagePath(request.url.split("?", 1)[0] ?? "")) return reply.sendFile("index.html");
    // Not through sendFile: its answer to a revalidation (304) would become an empty 404.
    return reply
      .status(404)
      .type("text/html; charset=utf-8")
      .send(await readFile(indexFile));
  });
}
