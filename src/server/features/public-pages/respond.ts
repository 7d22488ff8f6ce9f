import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../http/errors";

/**
 * A public page with a strong ETag of exactly what it shows (product, stock, store, plan standing,
 * asset names), so any change to those changes the tag; a browser holding that tag gets a 304.
 */
export function sendCacheable(
  request: FastifyRequest,
  reply: FastifyReply,
  html: string,
  cacheControl: string,
) {
  const etag = `"${createHash("sha256").update(html).digest("base64url").slice(0, 32)}"`;
  reply.header("cache-control", cacheControl).header("etag", etag);
  if (request.headers["if-none-match"]?.split(/\s*,\s*/).includes(etag)) return reply.status(304).send();
  return reply.type("text/html; charset=utf-8").send(html);
}

/** A page for this visitor only (a form's answer, a buyer's order or link): never stored anywhere. */
export function sendUncached(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).header("cache-control", "no-store").type("text/html; charset=utf-8").send(html);
}

export function nullWhenNotFound(error: unknown): null {
  if (error instanceof AppError && error.status === 404) return null;
  throw error;
}
