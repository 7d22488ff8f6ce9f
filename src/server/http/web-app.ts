import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import type { ApiErrorBody } from "../../contracts/errors";

const API_PREFIXES = ["/api/", "/dev/", "/files/"];

/**
 * Serves the built web app (dist/web) and answers every other GET with index.html so the
 * client router can take over (its own 404 page included). Files are looked up per request, so
 * a rebuild is picked up without a restart. Unknown API routes and missing assets are 404s.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  /** Extra <head> tags for a path (link previews), replacing the page's own title and description. */
  headTagsFor: (path: string) => Promise<string | undefined> = async () => undefined,
): Promise<void> {
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
    const tags = await headTagsFor(request.url.split("?")[0] ?? "/");
    if (!tags) return reply.sendFile("index.html");
    const html = await readFile(indexFile, "utf8");
    return reply.type("text/html; charset=utf-8").send(
      html
        .replace(/<title>[^<]*<\/title>/, "")
        .replace(/<meta name="description"[^>]*>/, "")
        // A replacer function: "$&", "$'" and "$`" in a seller's title are text, not replacement patterns.
        .replace("</head>", () => `    ${tags}\n  </head>`),
    );
  });
}
