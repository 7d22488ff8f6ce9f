import { Transform, type TransformCallback } from "node:stream";

/**
 * Product files are private (signed links only), covers are public; store exports are private archives
 * the app streams itself (docs/export-format.md), kept 7 days.
 */
export const BUCKETS = ["product-files", "product-covers", "store-exports"] as const;
export type BucketName = (typeof BUCKETS)[number];

/** What a backup copies: not the exports, which are copies of the rest, rebuilt on demand. */
export const BACKED_UP_BUCKETS = ["product-files", "product-covers"] as const satisfies readonly BucketName[];
export type BackedUpBucket = (typeof BACKED_UP_BUCKETS)[number];

export class ObjectNotFoundError extends Error {
  constructor(bucket: BucketName, key: string) {
    super(`No object ${bucket}/${key}`);
    this.name = "ObjectNotFoundError";
  }
}

export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Body is larger than ${maxBytes} bytes`);
    this.name = "ObjectTooLargeError";
  }
}

// Node's file system errors for a full disk and an exhausted quota; S3-compatible stores (MinIO) answer
// 507 Insufficient Storage. AWS S3 itself never fills up.
const OUT_OF_SPACE_CODES = new Set(["ENOSPC", "EDQUOT"]);

/** Whether a storage error means there is no room left, whichever driver raised it. */
export function isOutOfSpace(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, $metadata } = error as { code?: unknown; $metadata?: { httpStatusCode?: number } };
  return (
    OUT_OF_SPACE_CODES.has(String(code)) ||
    $metadata?.httpStatusCode === 507 ||
    error.name === "XMinioStorageFull"
  );
}

const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Path segments of letters, digits, `.`, `_` and `-`, none starting with a dot: nothing can climb out of its folder. */
export const isSafeKey = (key: string): boolean => key.length <= 512 && SAFE_KEY.test(key);

/** Keys are chosen by the server; an unsafe one is a bug, refused outright. */
export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
}

/** Path separators: a seller-set name like `../../x.zip` must never read as a path on the buyer's computer. */
const PATH_SEPARATORS = /[/\\]/g;

/**
 * `attachment` with an ASCII fallback name and the UTF-8 name (RFC 6266 / 5987), with `/` and `\`
 * replaced by `_` in both: browsers strip them, but download managers and scripts may not.
 */
export function attachmentDisposition(fileName: string): string {
  const safeName = fileName.replace(PATH_SEPARATORS, "_");
  const fallback = safeName.replace(/[^\x20-\x7e]|["%]/g, "_");
  const encoded = encodeURIComponent(safeName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Passes bytes through, counting them, and fails with ObjectTooLargeError once past maxBytes. */
export class ByteCounter extends Transform {
  bytes = 0;

  constructor(private readonly maxBytes?: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.maxBytes !== undefined && this.bytes > this.maxBytes)
      callback(new ObjectTooLargeError(this.maxBytes));
    else callback(null, chunk);
  }
}
