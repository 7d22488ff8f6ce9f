import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";

/** A strong ETag of exactly these bytes. */
export const strongEtag = (body: Buffer | string) =>
  `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;

/** Whether the client already holds the answer tagged `etag` (its If-None-Match names it). */
export const clientHolds = (request: FastifyRequest, etag: string) =>
  request.headers["if-none-match"]?.split(/\s*,\s*/).includes(etag) ?? false;
