import { PassThrough, type Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ORDER_MESSAGES } from "../../../contracts/orders";
import {
  type DownloadClaims,
  isLocalDiskStorage,
  type UploadClaims,
} from "../../adapters/storage/local-disk";
import { SignedTokenError } from "../../adapters/storage/signed-token";
import {
  attachmentDisposition,
  type BucketName,
  isSafeKey,
  ObjectTooLargeError,
  type Storage,
} from "../../adapters/storage/storage";
import { AppError, notFound } from "../../http/errors";
import { answerRange } from "./byte-range";
import { storageFullAnswer } from "./storage-full";
import { isCoverVariantKey } from "./upload-keys";

/** Matches the spec's upload cache control (3600 s). */
const PUBLIC_CACHE_CONTROL = "public, max-age=3600";
/** A cover size's bytes never change under its key (see isCoverVariantKey): kept for a year, never revalidated. */
const WRITE_ONCE_CACHE_CONTROL = "public, max-age=31536000, immutable";
// SVG can carry script; if one is ever served, it gets no power at all.
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const IMAGE_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  svg: "image/svg+xml",
};

/**
 * Checks a signed link cannot make on its own: whether what it was minted for still stands. A link is
 * signed once, but the upload it writes to may be finished and the order it serves refunded since.
 */
export interface FileLinkGates {
  /** Whether the upload a local upload link writes to still accepts bytes. */
  uploadAccepts?(claims: UploadClaims): Promise<boolean>;
  /**
   * Whether a local download link may serve this request: the order it was minted for still stands,
   * and the request may `use` the link that way (see linkUseOf).
   */
  downloadAllowed?(claims: DownloadClaims, request: { use: DownloadLinkUse }): Promise<boolean>;
}

/**
 * Serves files without a session: public covers for every driver, and, for the local driver, its signed
 * upload and download links (the token is the authorisation). Bodies stream straight through, never buffered.
 */
export function registerFileRoutes(app: FastifyInstance, storage: Storage, gates: FileLinkGates = {}): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));

    scope.get("/files/public/product-covers/*", async (request, reply) => {
      const key = (request.params as { "*": string })["*"];
      if (!isSafeKey(key)) throw notFound("Image not found");
      const extension = key.split(".").pop()?.toLowerCase() ?? "";
      const contentType = IMAGE_TYPES[extension] ?? "application/octet-stream";
      reply.header("cross-origin-resource-policy", "cross-origin");
      if (contentType === IMAGE_TYPES.svg) reply.header("content-security-policy", SVG_POLICY);
      const cacheControl = isCoverVariantKey(key) ? WRITE_ONCE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL;
      return sendObject(
        request,
        reply,
        storage,
        { bucket: "product-covers", key, contentType, cacheControl },
        "Image not found",
      );
    });

    if (!isLocalDiskStorage(storage)) return;
    const local = storage;

    scope.put("/files/upload/*", async (request, reply) => {
      const claims = readToken(() => local.readUploadToken(tokenOf(request)), "upload");
      if (gates.uploadAccepts && !(await gates.uploadAccepts(claims)))
        throw withoutRestOfBody(reply, uploadClosed());
      const declaredLength = Number(request.headers["content-length"]);
      if (declaredLength > claims.maxBytes) throw withoutRestOfBody(reply, tooLargeForLink(claims.maxBytes));
      // A pass-through between request and disk: when we stop reading, the request itself stays intact,
      // so the refusal can still be sent on its socket.
      const body = (request.body as Readable).pipe(new PassThrough());
      try {
        const { sizeBytes } = await local.write(claims.bucket, claims.key, body, {
          maxBytes: claims.maxBytes,
        });
        return reply.status(200).send({ sizeBytes });
      } catch (error) {
        if (error instanceof ObjectTooLargeError)
          throw withoutRestOfBody(reply, tooLargeForLink(claims.maxBytes));
        if (request.raw.destroyed)
          throw new AppError("upload_interrupted", 400, "The upload was interrupted.");
        throw withoutRestOfBody(reply, storageFullAnswer(error));
      }
    });

    scope.get("/files/download/*", async (request, reply) => {
      const claims = readToken(() => local.readDownloadToken(tokenOf(request)), "download");
      if (gates.downloadAllowed) {
        const use = await linkUseOf(request, local, claims);
        if (!(await gates.downloadAllowed(claims, { use }))) {
          throw new AppError("download_link_used", 403, ORDER_MESSAGES.storageLinkUsed);
        }
      }
      reply
        .header("content-disposition", attachmentDisposition(claims.fileName))
        .header("cache-control", "private, no-store");
      return sendObject(request, reply, local, claims, MISSING_DOWNLOAD);
    });
  });
}

/**
 * How a request uses a download link: `look` (HEAD) sends no bytes; `resume` continues a download, a
 * range starting past the first byte; `start` is anything else (`bytes=0-`, or a suffix as long as
 * the file, is the whole file again).
 */
export type DownloadLinkUse = "start" | "resume" | "look";

async function linkUseOf(request: FastifyRequest, storage: Storage, claims: DownloadClaims) {
  const info = await storage.stat(claims.bucket, claims.key);
  // A file that is gone must not use the link up.
  if (!info) throw notFound(MISSING_DOWNLOAD);
  if (request.method === "HEAD") return "look";
  const answer = answerRange(request.headers.range, info.sizeBytes);
  return answer.kind === "partial" && answer.range.start > 0 ? "resume" : "start";
}

const MISSING_DOWNLOAD = "This file is no longer available";

// A wildcard rather than `:token`: tokens are longer than the router's default parameter limit.
const tokenOf = (request: FastifyRequest) => (request.params as { "*": string })["*"];

function readToken<T>(read: () => T, action: "upload" | "download"): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof SignedTokenError)) throw error;
    if (error.problem === "expired") {
      throw new AppError(
        "link_expired",
        403,
        `This ${action} link has expired. Please start again for a new one.`,
      );
    }
    throw new AppError("link_invalid", 403, `This ${action} link is not valid.`);
  }
}

/** A refusal sent before the body is all read: the connection is closed rather than drained. */
function withoutRestOfBody(reply: FastifyReply, error: unknown): unknown {
  reply.header("connection", "close");
  return error;
}

const tooLargeForLink = (maxBytes: number) =>
  new AppError("file_too_large", 413, `This upload link accepts at most ${maxBytes} bytes.`);

const uploadClosed = () =>
  new AppError(
    "upload_closed",
    409,
    "This upload is already finished or was cancelled, so its link accepts no more files. Please start the upload again.",
  );

/** Streams an object with its length and type, honouring a single HTTP byte range (206) or refusing it (416). */
export async function sendObject(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  object: { bucket: BucketName; key: string; contentType: string; cacheControl?: string },
  missingMessage: string,
) {
  const info = await storage.stat(object.bucket, object.key);
  if (!info) throw notFound(missingMessage);
  const size = info.sizeBytes;
  // Only what exists is cached: a missing image must not be remembered as missing for a year.
  if (object.cacheControl) reply.header("cache-control", object.cacheControl);
  reply
    .header("accept-ranges", "bytes")
    .header("content-type", object.contentType)
    .header("x-content-type-options", "nosniff");

  const answer = answerRange(request.headers.range, size);
  if (answer.kind === "unsatisfiable") {
    return reply.status(416).header("content-range", `bytes */${size}`).send();
  }
  if (answer.kind === "partial") {
    const { start, end } = answer.range;
    return reply
      .status(206)
      .header("content-range", `bytes ${start}-${end}/${size}`)
      .header("content-length", end - start + 1)
      .send(await storage.read(object.bucket, object.key, answer.range));
  }
  return reply.header("content-length", size).send(await storage.read(object.bucket, object.key));
}
