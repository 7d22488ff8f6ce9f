import { Stream } from "node:stream";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError, badRequest } from "./errors";

/** Nesting deeper than this is refused before the body is parsed; no request of the app comes close. */
const MAX_JSON_DEPTH = 32;

export const REQUEST_GUARD_MESSAGES = {
  crossOrigin: "This request came from another site and was refused.",
  unsupportedMediaType: "This request must be sent as JSON (Content-Type: application/json).",
  tooDeep: `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels).`,
  nul: "Text cannot contain the NUL character (\\u0000).",
} as const;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * Skips the cross-site check for this route. Only for a route that reads no cookie and acts for no
     * account, so a cross-site request has no session to ride: today only the public license
     * verification (`POST /api/v1/licenses/verify`, features/licenses), which sellers' websites call.
     */
    allowCrossSite?: boolean;
  }
}

/**
 * Guards every route before its handler runs (register before any route):
 * - a state-changing request a browser sends from another site is refused (403), so a session
 *   cookie cannot be ridden cross-site. Requests without Origin and Fetch Metadata (curl, SDKs,
 *   Stripe's webhooks) carry no victim's cookie and pass; the upload link and webhooks are
 *   authorised by their token or signature, never by a cookie, so this costs them nothing;
 *   a route that reads no cookie at all may opt out with `config: { allowCrossSite: true }` (the
 *   public license verification, which sellers' own websites call);
 * - a body is parsed only as a type its route takes: JSON here, with nesting capped before
 *   parsing; a scope taking other types adds its own parser (the upload link takes any bytes);
 * - a NUL character in params, query or body is refused (400): PostgreSQL cannot store it.
 */
export function registerRequestGuards(app: FastifyInstance, deps: { appUrl: string }): void {
  const appOrigin = new URL(deps.appUrl).origin;
  // Callback hooks, not async ones: they run on every request, and a promise each is measurable there.
  app.addHook("onRequest", (request, _reply, done) => {
    if (
      !SAFE_METHODS.has(request.method) &&
      request.routeOptions.config?.allowCrossSite !== true &&
      isCrossSite(request, appOrigin)
    ) {
      return done(new AppError("cross_origin", 403, REQUEST_GUARD_MESSAGES.crossOrigin));
    }
    done();
  });

  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body as string;
    if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) {
      return done(new AppError("too_deeply_nested", 400, REQUEST_GUARD_MESSAGES.tooDeep), undefined);
    }
    return parseJson(request, text, done);
  });
  // Any other type, or a body without one: refused without reading it.
  app.addContentTypeParser("*", (_request, _payload, done) =>
    done(new AppError("unsupported_media_type", 415, REQUEST_GUARD_MESSAGES.unsupportedMediaType), undefined),
  );

  app.addHook("preValidation", (request, _reply, done) => {
    if ([request.params, request.query, request.body].some(containsNul)) {
      return done(badRequest(REQUEST_GUARD_MESSAGES.nul, "validation_error"));
    }
    done();
  });
}

/**
 * Whether a browser sent this request from a page that is not ours. Fetch Metadata says so
 * directly (and is right even when the page's address differs from APP_URL, e.g. 127.0.0.1 for
 * localhost); browsers without it still send Origin on every non-GET request.
 */
function isCrossSite(request: FastifyRequest, appOrigin: string): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined) return site !== "same-origin" && site !== "none";
  const origin = request.headers.origin;
  return origin !== undefined && origin !== appOrigin;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);

/** One pass over JSON text, without recursion or parsing: does any array or object nest deeper than `limit`? */
function exceedsJsonDepth(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (OPEN.has(code)) {
      if (++depth > limit) return true;
    } else if (CLOSE.has(code)) {
      depth--;
    }
  }
  return false;
}

/** Whether a NUL character is in any string or key of a parsed value (a stream or buffer body is not looked into). */
function containsNul(value: unknown): boolean {
  const pending = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === "string") {
      if (current.includes("\u0000")) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (isRecord(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes("\u0000")) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** Parsed JSON, params and query (some with a null prototype); a body kept raw (a Buffer, a stream) is not text. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && !ArrayBuffer.isView(value) && !(value instanceof Stream)
  );
}
