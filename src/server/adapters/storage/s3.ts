import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  assertSafeKey,
  attachmentDisposition,
  type BucketName,
  ObjectNotFoundError,
  ObjectTooLargeError,
} from "./objects";
import type { Storage, WriteOptions } from "./storage";

export interface S3StorageOptions {
  /** Custom endpoint (MinIO, R2, s3rver...): addressed path-style. Omit for AWS. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Public base of the covers (a CDN, or the bucket's public URL). Without it covers are served through the app. */
  publicBaseUrl?: string;
  /** The app's public URL, for covers served through the app. */
  appBaseUrl?: string;
}

// S3's smallest part is 5 MiB; 8 MiB parts keep memory bounded and a 250 MB file under 32 parts.
const PART_SIZE = 8 * 1024 * 1024;

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === "NotFound" || error.name === "NoSuchKey" || error.$metadata.httpStatusCode === 404);

/** Both logical buckets live in one S3 bucket, as prefixes: `product-files/…` and `product-covers/…`. */
export function s3Storage(options: S3StorageOptions): Storage {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // Checksums only where S3 requires them: S3-compatible stores vary in support for the newer defaults.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = options.bucket;
  const objectKey = (bucket: BucketName, key: string) => {
    assertSafeKey(key);
    return `${bucket}/${key}`;
  };

  /** Reads the body in parts of PART_SIZE: one PutObject when it fits in one part, else a multipart upload. */
  async function write(bucket: BucketName, key: string, body: Readable, writeOptions: WriteOptions = {}) {
    const Key = objectKey(bucket, key);
    const ContentType = writeOptions.contentType;
    const parts = readParts(body, writeOptions.maxBytes);
    const first = await parts.next();
    const firstPart = first.done ? Buffer.alloc(0) : first.value;
    const second = first.done ? first : await parts.next();
    if (second.done) {
      await client.send(new PutObjectCommand({ Bucket, Key, Body: firstPart, ContentType }));
      return { sizeBytes: firstPart.length };
    }

    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType }));
    try {
      const completed: { ETag: string | undefined; PartNumber: number }[] = [];
      let sizeBytes = 0;
      const uploadPart = async (part: Buffer) => {
        const PartNumber = completed.length + 1;
        const { ETag } = await client.send(
          new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: part }),
        );
        completed.push({ ETag, PartNumber });
        sizeBytes += part.length;
      };
      await uploadPart(firstPart);
      await uploadPart(second.value);
      for await (const part of parts) await uploadPart(part);
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: completed } }),
      );
      return { sizeBytes };
    } catch (error) {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => {});
      throw error;
    }
  }

  return {
    kind: "s3",

    async isHealthy() {
      return client.send(new HeadBucketCommand({ Bucket })).then(
        () => true,
        () => false,
      );
    },

    write,

    async read(bucket, key, range) {
      try {
        const response = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: objectKey(bucket, key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        if (!(response.Body instanceof Readable)) throw new Error("S3 returned no readable body");
        return response.Body;
      } catch (error) {
        if (isNotFound(error)) throw new ObjectNotFoundError(bucket, key);
        throw error;
      }
    },

    async stat(bucket, key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(bucket, key) }));
        return { sizeBytes: head.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async delete(bucket, key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(bucket, key) }));
    },

    async move(bucket, fromKey, toKey) {
      const from = objectKey(bucket, fromKey);
      try {
        await client.send(
          new CopyObjectCommand({
            Bucket,
            Key: objectKey(bucket, toKey),
            CopySource: `${Bucket}/${encodeURI(from)}`,
          }),
        );
      } catch (error) {
        throw isNotFound(error) ? new ObjectNotFoundError(bucket, fromKey) : error;
      }
      await client.send(new DeleteObjectCommand({ Bucket, Key: from }));
    },

    async signedUploadTarget(bucket, key, { sizeBytes, contentType, expiresInSeconds }) {
      const command = new PutObjectCommand({
        Bucket,
        Key: objectKey(bucket, key),
        ContentType: contentType,
        ContentLength: sizeBytes,
      });
      // Signing Content-Length makes S3 itself refuse a body of any other size.
      const url = await getSignedUrl(client, command, {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(["content-type", "content-length"]),
      });
      return {
        method: "PUT",
        url,
        headers: { "Content-Type": contentType },
        expiresAt: new Date(Date.now() + expiresInSeconds * 1000),
      };
    },

    async signedDownloadUrl(bucket, key, { fileName, contentType, expiresInSeconds }) {
      const command = new GetObjectCommand({
        Bucket,
        Key: objectKey(bucket, key),
        ResponseContentDisposition: attachmentDisposition(fileName),
        ResponseContentType: contentType,
      });
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds });
    },

    publicUrl(key) {
      assertSafeKey(key);
      const base = (options.publicBaseUrl ?? `${options.appBaseUrl ?? ""}/files/public`).replace(/\/$/, "");
      return `${base}/product-covers/${key}`;
    },
  };
}

/** Yields the body as buffers of PART_SIZE (the last one shorter), failing once past maxBytes. */
async function* readParts(body: Readable, maxBytes: number | undefined): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let total = 0;
  for await (const chunk of body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += bytes.length;
    if (maxBytes !== undefined && total > maxBytes) throw new ObjectTooLargeError(maxBytes);
    pending.push(bytes);
    pendingBytes += bytes.length;
    while (pendingBytes >= PART_SIZE) {
      const joined = Buffer.concat(pending);
      yield joined.subarray(0, PART_SIZE);
      pending = [joined.subarray(PART_SIZE)];
      pendingBytes -= PART_SIZE;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}
