import { createHmac, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { access, constants, mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import { assertSafeKey, BUCKETS, type BucketName, ByteCounter, ObjectNotFoundError } from "./objects";
import { SignedTokenError, signToken, verifyToken } from "./signed-token";
import type { Storage } from "./storage";

export interface LocalDiskOptions {
  /** Signs the upload and download links. Without one, links only work for the life of this process. */
  secret?: string;
  /** Prefix of the links handed out (the app's public URL); empty gives same-origin paths. */
  baseUrl?: string;
}

const uploadClaimsSchema = z.object({
  action: z.literal("upload"),
  bucket: z.enum(BUCKETS),
  key: z.string(),
  maxBytes: z.number().int().nonnegative(),
  expiresAt: z.number(),
});
const downloadClaimsSchema = z.object({
  action: z.literal("download"),
  bucket: z.enum(BUCKETS),
  key: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  grant: z.object({ orderId: z.string(), downloadId: z.number().int() }).optional(),
  expiresAt: z.number(),
});
export type UploadClaims = z.infer<typeof uploadClaimsSchema>;
export type DownloadClaims = z.infer<typeof downloadClaimsSchema>;

/** The local driver also answers its own signed links (see features/uploads/file-routes.ts). */
export interface LocalDiskStorage extends Storage {
  readonly kind: "local";
  /** The folder holding `<bucket>/<key>` (backups read it). */
  readonly root: string;
  /** Throws SignedTokenError unless this storage signed the token for an upload and it is still valid. */
  readUploadToken(token: string): UploadClaims;
  /** Throws SignedTokenError unless this storage signed the token for a download and it is still valid. */
  readDownloadToken(token: string): DownloadClaims;
}

export const isLocalDiskStorage = (storage: Storage): storage is LocalDiskStorage => storage.kind === "local";

// Writes buffer up to 1 MiB (written with writev) instead of 16 KiB: fewer system calls, memory still flat.
const STREAM_CHUNK_BYTES = 1024 * 1024;

const nowInSeconds = () => Math.floor(Date.now() / 1000);

/** Files under `root/<bucket>/<key>`, private; written to `root/.incoming` first and renamed when complete. */
export async function localDiskStorage(
  root: string,
  options: LocalDiskOptions = {},
): Promise<LocalDiskStorage> {
  const incoming = path.join(root, ".incoming");
  await mkdir(incoming, { recursive: true });
  // A key of its own, so a leaked link secret is never the app's session secret.
  const secret = createHmac("sha256", options.secret ?? randomBytes(32))
    .update("flatfee storage links")
    .digest("hex");
  const baseUrl = (options.baseUrl ?? "").replace(/\/$/, "");

  const objectPath = (bucket: BucketName, key: string) => {
    assertSafeKey(key);
    return path.join(root, bucket, key);
  };

  const readClaims = <T>(token: string, schema: z.ZodType<T>): T => {
    const parsed = schema.safeParse(verifyToken(token, secret));
    if (!parsed.success) throw new SignedTokenError("invalid");
    return parsed.data;
  };

  return {
    kind: "local",
    root,

    async isHealthy() {
      return access(root, constants.W_OK).then(
        () => true,
        () => false,
      );
    },

    async write(bucket, key, body, writeOptions = {}) {
      const target = objectPath(bucket, key);
      const temporary = path.join(incoming, `${randomBytes(12).toString("hex")}.part`);
      const counter = new ByteCounter(writeOptions.maxBytes);
      const file = createWriteStream(temporary, {
        flags: "wx",
        mode: 0o600,
        highWaterMark: STREAM_CHUNK_BYTES,
      });
      try {
        await pipeline(body, counter, file);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(temporary, target);
        return { sizeBytes: counter.bytes };
      } catch (error) {
        // A body refused before the file was even opened (too large at once) still has it opened, then
        // closed, by the destroyed stream: removed only after that, or the part file would stay behind.
        if (!file.closed) await new Promise<void>((resolve) => file.once("close", () => resolve()));
        await rm(temporary, { force: true });
        throw error;
      }
    },

    async read(bucket, key, range): Promise<Readable> {
      const file = await open(objectPath(bucket, key), "r").catch((error: NodeJS.ErrnoException) => {
        throw error.code === "ENOENT" ? new ObjectNotFoundError(bucket, key) : error;
      });
      // Large chunks: fewer, bigger socket writes (the 64 KB default costs a third of download speed).
      return file.createReadStream({
        highWaterMark: STREAM_CHUNK_BYTES,
        ...(range ? { start: range.start, end: range.end } : {}),
      });
    },

    async stat(bucket, key) {
      const stats = await stat(objectPath(bucket, key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      });
      return stats?.isFile() ? { sizeBytes: stats.size } : undefined;
    },

    async delete(bucket, key) {
      await rm(objectPath(bucket, key), { force: true });
    },

    async move(bucket, fromKey, toKey) {
      const target = objectPath(bucket, toKey);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(objectPath(bucket, fromKey), target).catch((error: NodeJS.ErrnoException) => {
        throw error.code === "ENOENT" ? new ObjectNotFoundError(bucket, fromKey) : error;
      });
    },

    async signedUploadTarget(bucket, key, { sizeBytes, contentType, expiresInSeconds }) {
      assertSafeKey(key);
      const expiresAt = nowInSeconds() + expiresInSeconds;
      const token = signToken({ action: "upload", bucket, key, maxBytes: sizeBytes, expiresAt }, secret);
      return {
        method: "PUT",
        url: `${baseUrl}/files/upload/${token}`,
        headers: { "Content-Type": contentType },
        expiresAt: new Date(expiresAt * 1000),
      };
    },

    async signedDownloadUrl(bucket, key, { fileName, contentType, expiresInSeconds, grant }) {
      assertSafeKey(key);
      const expiresAt = nowInSeconds() + expiresInSeconds;
      const claims = { action: "download", bucket, key, fileName, contentType, grant, expiresAt };
      const token = signToken(claims, secret);
      return `${baseUrl}/files/download/${token}`;
    },

    publicUrl(key) {
      assertSafeKey(key);
      return `${baseUrl}/files/public/product-covers/${key}`;
    },

    readUploadToken: (token) => readClaims(token, uploadClaimsSchema),
    readDownloadToken: (token) => readClaims(token, downloadClaimsSchema),
  };
}
