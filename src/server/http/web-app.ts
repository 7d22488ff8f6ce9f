import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import type { ApiErrorBody } from "../../contracts/errors";

const API_PREFIXES = ["/api/", "/dev/", "/files/"];

/**
 * Serves the built web app (dist/web) and answers every other GET with index.html so the
 * client router can take over (its own 404 page included); the public product and store pages are
 * rendered by the server instead (features/public-pages). Files are looked up per request, so
 * a rebuild is picked up without a restart. Unknown API routes and missing assets are 404s.
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
    return reply.sendFile("index.html");
  });
}
