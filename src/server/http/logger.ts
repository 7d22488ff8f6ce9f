import type { FastifyInstance, FastifyRequest } from "fastify";
import pino, { type DestinationStream, type Logger } from "pino";

declare module "fastify" {
  interface FastifyRequest {
    /** Answered from a cache (a kept public page or its 304): its log line is sampled, see registerRequestLogging. */
    keptAnswer: boolean;
  }
}

const REDACTED = "[redacted]";
/**
 * Path segments whose rest is a bearer secret: download pages and their API (/download, /api/downloads),
 * the local storage links (/files/download, /files/upload), library links, Better Auth's reset-password
 * callback, the success page's checkout-session lookup (it hands out a download link) and unsubscribe links.
 */
const SECRET_PATH = /\/(download|downloads|upload|library|reset-password|by-session|unsubscribe)\/[^?#]+/gi;
/** Query parameters whose name says they carry a secret: link tokens, checkout sessions, API keys. */
const SECRET_QUERY_NAME =
  /^(?:token|session_id|key|api[-_]?key|apikey|access[-_]?token|auth|authorization|secret|password|signature|sig)$/i;
/** Values that look like a key whatever their name: ours (ff_live_…), Stripe's, webhook secrets. */
const KEY_PREFIX = /^(?:ff_(?:live|test)_|sk_|rk_|whsec_|Bearer)/i;
/** A long run of key characters with letters and digits (a random secret); a UUID is an id, not a key. */
const RANDOM_LOOKING = /^(?=.*[0-9])(?=.*[A-Za-z])[A-Za-z0-9_\-.~+/=%]{24,}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function looksLikeKey(value: string): boolean {
  return KEY_PREFIX.test(value) || (RANDOM_LOOKING.test(value) && !UUID.test(value));
}

/**
 * The URL with every link token and anything like a key replaced by "[redacted]": anyone reading logs
 * could otherwise use them (an API key sent as `?api_key=` is refused, but it is still a live key).
 */
export function redactUrl(url: string): string {
  const withoutPathSecrets = url.replace(SECRET_PATH, (_match, segment: string) => `/${segment}/${REDACTED}`);
  const queryStart = withoutPathSecrets.indexOf("?");
  if (queryStart === -1) return withoutPathSecrets;
  const query = withoutPathSecrets.slice(queryStart + 1).replace(/[^&#]+/g, (pair) => {
    const equals = pair.indexOf("=");
    if (equals === -1) return looksLikeKey(pair) ? REDACTED : pair;
    const name = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    return SECRET_QUERY_NAME.test(name) || looksLikeKey(value) ? `${name}=${REDACTED}` : pair;
  });
  return `${withoutPathSecrets.slice(0, queryStart)}?${query}`;
}

/** Kept answers logged: one in this many (errors and slow answers always are). */
export const KEPT_ANSWER_LOG_SAMPLE = 100;
/** An answer slower than this is always logged. */
export const SLOW_ANSWER_MS = 100;

/**
 * One log line per request, written when its answer is sent ("request completed": method, redacted
 * URL, status, milliseconds), instead of Fastify's two (one on arrival). Answers sent from a cache (kept
 * public pages, whose sending costs less than the log line) are logged one in KEPT_ANSWER_LOG_SAMPLE,
 * with `sampled` saying how many each line stands for, unless they failed or were slow. Errors are
 * logged by the error handler as before.
 */
export function registerRequestLogging(app: FastifyInstance): void {
  app.decorateRequest("keptAnswer", false);
  let keptAnswers = 0;
  app.addHook("onResponse", (request, reply, done) => {
    const ms = reply.elapsedTime;
    const status = reply.statusCode;
    if (request.keptAnswer && status < 400 && ms < SLOW_ANSWER_MS) {
      keptAnswers = (keptAnswers + 1) % KEPT_ANSWER_LOG_SAMPLE;
      if (keptAnswers !== 1) return done();
      request.log.info(
        { req: request, res: { statusCode: status }, responseTime: ms, sampled: KEPT_ANSWER_LOG_SAMPLE },
        "request completed",
      );
      return done();
    }
    request.log.info({ req: request, res: { statusCode: status }, responseTime: ms }, "request completed");
    done();
  });
}

/** Fastify's request fields, with the URL redacted (request lines and errors log them). */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

const LEVEL_NAMES: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO ",
  40: "WARN ",
  50: "ERROR",
  60: "FATAL",
};
/** Fields every line has, shown in the line's head or not at all. */
const HEAD_FIELDS = new Set(["level", "time", "pid", "hostname", "msg", "req", "res", "responseTime", "err"]);

/**
 * A JSON log line as a person reads it: `12:00:01 INFO  GET /product/1 200 3.1 ms request completed`,
 * other fields as name=value, an error's stack on the lines below.
 */
export function readableLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith("\n") ? json : `${json}\n`;
  }
  const time = new Date(Number(entry.time)).toISOString().slice(11, 19);
  const level = LEVEL_NAMES[Number(entry.level)] ?? String(entry.level);
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  const request = req ? ` ${req.method} ${req.url}${res ? ` ${res.statusCode}` : ""}` : "";
  const took = typeof entry.responseTime === "number" ? ` ${entry.responseTime.toFixed(1)} ms` : "";
  const rest = Object.entries(entry)
    .filter(([name]) => !HEAD_FIELDS.has(name))
    .map(([name, value]) => ` ${name}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join("");
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const stack = err ? `\n  ${(err.stack ?? err.message ?? "").replace(/\n/g, "\n  ")}` : "";
  return `${time} ${level}${request}${took} ${entry.msg ?? ""}${rest}${stack}\n`;
}

/** A destination writing readable lines to a terminal (pino-pretty would add its start-up cost). */
function readableLines(terminal: { write(text: string): unknown }): DestinationStream {
  return { write: (line: string) => void terminal.write(readableLogLine(line)) };
}

/**
 * The app's logger: JSON lines on stdout (for a log collector), readable lines when stdout is a
 * terminal (`npm start` by hand), or JSON into `destination` when one is given (a test capturing them).
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  stdout: { isTTY?: boolean; write(text: string): unknown } = process.stdout,
): Logger {
  const options = { level, serializers: { req: requestForLog } };
  if (destination) return pino(options, destination);
  return stdout.isTTY ? pino(options, readableLines(stdout)) : pino(options);
}
