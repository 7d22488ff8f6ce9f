import { promisify } from "node:util";
import { brotliCompress, gunzip, gzip, constants as zlibConstants } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../http/errors";
import { clientHolds, strongEtag } from "../../http/etag";
import { sendPrepared } from "../../http/send-prepared";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const gunzipped = promisify(gunzip);

type Encoding = "br" | "gzip" | "identity";

/**
 * A page ready to send as often as asked: a strong ETag of exactly what it shows (product, stock, store,
 * plan standing, asset names), so any change to those changes the tag, and its body compressed once
 * instead of per request. Only the compressed bodies are kept (together a fifth of the HTML, which
 * carries the stylesheet): the few clients that take neither get the gzip one unpacked.
 */
export interface FinishedPage {
  etag: string;
  bodies: Record<Exclude<Encoding, "identity">, Buffer>;
  /** The page's own headers per encoding, made once: content type, encoding and ETag. */
  headers: Record<Encoding, Readonly<Record<string, string>>>;
}

/** Tags and compresses a page once. Compression runs on libuv's threads, not the event loop. */
export async function finishPage(html: string): Promise<FinishedPage> {
  const identity = Buffer.from(html);
  const [br, gzip] = await Promise.all([
    // As fast a level as @fastify/compress is given for everything else: higher ones cost 5-25x the
    // time for 2-9% fewer bytes (about 1 KB of a page), and a page is compressed again on every change.
    brotli(identity, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzipped(identity, { level: 6 }),
  ]);
  const etag = strongEtag(identity);
  const htmlHeaders = { "content-type": "text/html; charset=utf-8", etag };
  return {
    etag,
    bodies: { br, gzip },
    headers: {
      br: { ...htmlHeaders, "content-encoding": "br" },
      gzip: { ...htmlHeaders, "content-encoding": "gzip" },
      identity: htmlHeaders,
    },
  };
}

/**
 * Sends a finished page, or 304 when the browser holds its tag, with headers made when the page was
 * (see FinishedPage), straight to the socket (http/send-prepared.ts). Its log line is sampled
 * (http/logger.ts).
 */
export async function sendFinishedPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: FinishedPage,
  cacheControl: string,
) {
  request.keptAnswer = true;
  const vary = reply.getHeader("vary");
  reply
    .header("cache-control", cacheControl)
    .header("vary", vary ? `${vary}, accept-encoding` : "accept-encoding");
  if (clientHolds(request, page.etag)) return sendPrepared(request, reply, 304, { etag: page.etag });
  const encoding = preferredEncoding(request.headers["accept-encoding"]);
  if (encoding === "identity") {
    return sendPrepared(request, reply, 200, page.headers.identity, await gunzipped(page.bodies.gzip));
  }
  return sendPrepared(request, reply, 200, page.headers[encoding], page.bodies[encoding]);
}

/** Accept-Encoding values seen and what they chose: browsers send a handful, so each is parsed once. */
const encodingChoices = new Map<string, Encoding>();
const MAX_ENCODING_CHOICES = 64;

/** The best encoding this `Accept-Encoding` takes (remembered per value, see encodingChoices). */
function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  let encoding = encodingChoices.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = parseAcceptEncoding(acceptEncoding);
    // Made-up values must not grow the map: past its size, new ones are parsed every time.
    if (encodingChoices.size < MAX_ENCODING_CHOICES) encodingChoices.set(acceptEncoding, encoding);
  }
  return encoding;
}

/**
 * The best encoding this `Accept-Encoding` takes: brotli, then gzip, else none. A `q=0` refuses one,
 * and `*` stands for any not named.
 */
function parseAcceptEncoding(acceptEncoding: string): Encoding {
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name = "", ...params] = part.split(";").map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith("q="));
    weights.set(name === "x-gzip" ? "gzip" : name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  const [best] = (["br", "gzip"] as const)
    .filter((name) => weightOf(name) > 0)
    .sort((a, b) => weightOf(b) - weightOf(a));
  return best ?? "identity";
}

/** A page for this visitor only (a form's answer, a buyer's order or link): never stored anywhere. */
export function sendUncached(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).header("cache-control", "no-store").type("text/html; charset=utf-8").send(html);
}

export function nullWhenNotFound(error: unknown): null {
  if (error instanceof AppError && error.status === 404) return null;
  throw error;
}
