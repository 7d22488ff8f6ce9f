import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

const API_PREFIXES = ["/api/", "/dev/", "/files/"];

/**
 * Serves the built web app (dist/web) and answers every other GET with index.html so the
 * client router can take over (its own 404 page included). Unknown API routes stay JSON 404s.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const built = existsSync(path.join(distDir, "index.html"));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        // Vite fingerprints assets, so they can be cached forever; index.html must not be.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header("cache-control", "public, max-age=31536000, immutable");
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    if (request.method !== "GET" || isApi) {
      return reply
        .status(404)
        .send({ code: "not_found", message: `No route for ${request.method} ${request.url}` });
    }
    if (!built) {
      return reply.status(503).type("text/plain").send("The web app is not built yet: run `npm run build`.");
    }
    reply.header("cache-control", "no-cache");
    return reply.sendFile("index.html");
  });
}
