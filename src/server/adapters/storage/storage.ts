import type { Readable } from "node:stream";
import type { BucketName } from "./objects";

export { localDiskStorage } from "./local-disk";
export {
  assertSafeKey,
  attachmentDisposition,
  BUCKETS,
  type BucketName,
  isOutOfSpace,
  isSafeKey,
  ObjectNotFoundError,
  ObjectTooLargeError,
} from "./objects";

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface SignedUploadTarget {
  method: "PUT";
  url: string;
  /** Headers the browser must send with the PUT (they are part of the signature on S3). */
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface UploadTargetOptions {
  /** The exact size the client declared; larger bodies are refused. */
  sizeBytes: number;
  contentType: string;
  expiresInSeconds: number;
}

export interface DownloadUrlOptions {
  /** Offered to the browser as the saved file's name. */
  fileName: string;
  contentType: string;
  expiresInSeconds: number;
  /**
   * The order and download the link is minted for. The local driver signs it into the link, so the
   * server serving it can check the order still stands and the link serves one download.
   */
  grant?: { orderId: string; downloadId: number };
}

export interface WriteOptions {
  contentType?: string;
  /** Refuse (and leave nothing behind) once the body grows past this many bytes. */
  maxBytes?: number;
}

/** Where product files and covers live: local disk by default, any S3-compatible store in production. */
export interface Storage {
  readonly kind: "local" | "s3";
  isHealthy(): Promise<boolean>;
  /** Streams the body into the object; the object only appears (or is replaced) once the body is complete. */
  write(
    bucket: BucketName,
    key: string,
    body: Readable,
    options?: WriteOptions,
  ): Promise<{ sizeBytes: number }>;
  /** Throws ObjectNotFoundError when there is no such object. */
  read(bucket: BucketName, key: string, range?: ByteRange): Promise<Readable>;
  stat(bucket: BucketName, key: string): Promise<{ sizeBytes: number } | undefined>;
  /** Deleting a missing object is not an error. */
  delete(bucket: BucketName, key: string): Promise<void>;
  /**
   * Moves an object to another key of the same bucket (a rename on disk, a server-side copy on S3).
   * Links signed for the old key then write to, or read from, a key nothing uses any more.
   */
  move(bucket: BucketName, fromKey: string, toKey: string): Promise<void>;
  signedUploadTarget(
    bucket: BucketName,
    key: string,
    options: UploadTargetOptions,
  ): Promise<SignedUploadTarget>;
  signedDownloadUrl(bucket: BucketName, key: string, options: DownloadUrlOptions): Promise<string>;
  /** The public address of an object in product-covers. */
  publicUrl(key: string): string;
}
