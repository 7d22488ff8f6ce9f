import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);
/** Headers a reverse proxy adds: a request carrying one came from elsewhere, whatever its socket says. */
const PROXY_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];

/**
 * A request from this machine itself: its socket's peer is the loopback address (never `request.ip`, which
 * TRUST_PROXY may take from a header) and no proxy forwarded it (a proxy on this machine connects from
 * the loopback address too, for anyone on the internet).
 */
export function isLocalRequest(request: FastifyRequest): boolean {
  const peer = request.socket.remoteAddress;
  if (!peer || !LOOPBACK.has(peer)) return false;
  return PROXY_HEADERS.every((name) => request.headers[name] === undefined);
}

/** Whether `Authorization: Bearer …` carries `expected`, compared in constant time (of hashes: equal lengths). */
export function hasBearerToken(request: FastifyRequest, expected: string | undefined): boolean {
  if (!expected) return false;
  const header = request.headers.authorization;
  if (typeof header !== "string" || !header.startsWith("Bearer ")) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(header.slice("Bearer ".length).trim()), digest(expected));
}

/** /metrics: from this machine, or with the operator's METRICS_TOKEN. */
export function mayReadMetrics(request: FastifyRequest, metricsToken: string | undefined): boolean {
  return isLocalRequest(request) || hasBearerToken(request, metricsToken);
}

/**
 * The backup's token, derived from the auth secret: `npm run backup` on this machine reads the same
 * secret (AUTH_SECRET or DATA_DIR/local-secrets.json), another local user cannot. A backup holds every
 * secret, so it takes both this token and a request from this machine.
 */
export function backupToken(authSecret: string): string {
  return createHmac("sha256", authSecret).update("flatfee backup").digest("hex");
}

export function mayTakeBackup(request: FastifyRequest, authSecret: string): boolean {
  return isLocalRequest(request) && hasBearerToken(request, backupToken(authSecret));
}
