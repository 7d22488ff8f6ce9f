import type { FastifyRequest } from "fastify";
import pino, { type DestinationStream, type Logger } from "pino";

const REDACTED = "[redacted]";
/**
 * Path segments whose rest is a bearer secret: download pages and their API (/download, /api/downloads),
 * the local storage links (/files/download, /files/upload), library links, Better Auth's reset-password
 * callback, the success page's checkout-session lookup (it hands out a download link) and unsubscribe links.
 */
const SECRET_PATH = /\/(download|downloads|upload|library|reset-password|by-session|unsubscribe)\/[^?#]+/gi;
/** Query parameters that are bearer secrets: library, reset and verification tokens, checkout sessions. */
const SECRET_QUERY = /([?&](?:token|session_id)=)[^&#]*/gi;

/** The URL with every link token replaced by "[redacted]": anyone reading logs could otherwise use them. */
export function redactUrl(url: string): string {
  return url
    .replace(SECRET_PATH, (_match, segment: string) => `/${segment}/${REDACTED}`)
    .replace(SECRET_QUERY, (_match, name: string) => `${name}${REDACTED}`);
}

/** Fastify's request fields, with the URL redacted ("incoming request" and errors log them). */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The app's logger (JSON lines on stdout unless a destination is given, e.g. a test capturing them). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, serializers: { req: requestForLog } };
  return destination ? pino(options, destination) : pino(options);
}
