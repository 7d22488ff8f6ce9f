import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import Fastify from "fastify";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerFileRoutes } from "../../features/uploads/file-routes";
import { harmlessEntries, zipArchive } from "../../features/uploads/test-fixtures";
import { findZipProblem } from "../../features/uploads/zip-inspection";
import { registerErrorHandling } from "../../http/errors";
import { localDiskStorage } from "./local-disk";
import { s3Storage } from "./s3";
import { ObjectNotFoundError, ObjectTooLargeError, type Storage } from "./storage";

interface Harness {
  storage: Storage;
  /** Resolves the links a driver hands out (the local driver's are same-origin paths). */
  resolve(url: string): string;
  close(): Promise<void>;
}

/** The local driver with its file routes on a real listening server, since its links point at us. */
async function localHarness(): Promise<Harness> {
  const root = await mkdtemp(path.join(tmpdir(), "flatfee-storage-"));
  const storage = await localDiskStorage(root, { secret: "contract-test-secret" });
  // Force-close keep-alive sockets fetch leaves open, so close() never waits on them.
  const server = Fastify({ forceCloseConnections: true });
  registerErrorHandling(server);
  registerFileRoutes(server, storage);
  await server.listen({ port: 0, host: "127.0.0.1" });
  const origin = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return {
    storage,
    resolve: (url) => new URL(url, origin).toString(),
    async close() {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The S3 driver against s3rver, in-process on a free port (it does not check signatures). */
async function s3Harness(): Promise<Harness> {
  const directory = await mkdtemp(path.join(tmpdir(), "flatfee-s3rver-"));
  const s3rver = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: "flatfee-test" }],
  });
  const { port } = await s3rver.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const storage = s3Storage({
    endpoint,
    bucket: "flatfee-test",
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    publicBaseUrl: `${endpoint}/flatfee-test`,
  });
  return {
    storage,
    resolve: (url) => url,
    async close() {
      await s3rver.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

const streamOf = (bytes: Buffer) => Readable.from([bytes]);
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
/** `total` bytes in 1 MiB chunks, so the driver sees a real stream rather than one buffer. */
function generatedStream(total: number, seed: Buffer): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const size = Math.min(1024 * 1024, total - sent);
      const chunk = Buffer.alloc(size);
      for (let offset = 0; offset < size; offset += seed.length) seed.copy(chunk, offset);
      sent += size;
      this.push(chunk);
    },
  });
}

describe.each([
  ["local disk", localHarness],
  ["S3 (s3rver)", s3Harness],
])("storage contract: %s", (_name, makeHarness) => {
  let harness: Harness;
  let storage: Storage;
  const key = (name: string) => `seller-1/${Date.now()}-${randomBytes(4).toString("hex")}-${name}`;

  beforeAll(async () => {
    harness = await makeHarness();
    storage = harness.storage;
  });
  afterAll(async () => harness?.close());

  it("reports healthy", async () => {
    expect(await storage.isHealthy()).toBe(true);
  });

  it("writes a stream and reads it back whole, with its size", async () => {
    const bytes = randomBytes(70_000);
    const objectKey = key("file.pdf");
    expect(await storage.write("product-files", objectKey, streamOf(bytes))).toEqual({
      sizeBytes: bytes.length,
    });
    expect(await storage.stat("product-files", objectKey)).toEqual({ sizeBytes: bytes.length });
    expect((await readAll(await storage.read("product-files", objectKey))).equals(bytes)).toBe(true);
  });

  it("reads an inclusive byte range", async () => {
    const bytes = randomBytes(10_000);
    const objectKey = key("range.bin");
    await storage.write("product-files", objectKey, streamOf(bytes));
    const slice = await readAll(await storage.read("product-files", objectKey, { start: 100, end: 199 }));
    expect(slice.equals(bytes.subarray(100, 200))).toBe(true);
  });

  it("keeps the two buckets apart", async () => {
    const objectKey = key("both.png");
    await storage.write("product-covers", objectKey, streamOf(Buffer.from("cover")));
    expect(await storage.stat("product-files", objectKey)).toBeUndefined();
    expect(await storage.stat("product-covers", objectKey)).toEqual({ sizeBytes: 5 });
  });

  it("replaces an object on a second write", async () => {
    const objectKey = key("profile.webp");
    await storage.write("product-covers", objectKey, streamOf(Buffer.from("first version")));
    await storage.write("product-covers", objectKey, streamOf(Buffer.from("second")));
    expect((await readAll(await storage.read("product-covers", objectKey))).toString()).toBe("second");
  });

  it("refuses a body past maxBytes and leaves the previous object untouched", async () => {
    const objectKey = key("limited.zip");
    await storage.write("product-files", objectKey, streamOf(Buffer.from("original")));
    await expect(
      storage.write("product-files", objectKey, streamOf(randomBytes(2_000)), { maxBytes: 1_000 }),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect((await readAll(await storage.read("product-files", objectKey))).toString()).toBe("original");

    const neverWritten = key("never.zip");
    await expect(
      storage.write("product-files", neverWritten, streamOf(randomBytes(2_000)), { maxBytes: 1_000 }),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await storage.stat("product-files", neverWritten)).toBeUndefined();
  });

  it("streams a file larger than one S3 part (17 MiB) intact", async () => {
    const objectKey = key("large.mp4");
    const seed = randomBytes(4096);
    const total = 17 * 1024 * 1024;
    await storage.write("product-files", objectKey, generatedStream(total, seed));
    expect(await storage.stat("product-files", objectKey)).toEqual({ sizeBytes: total });
    const back = await readAll(await storage.read("product-files", objectKey));
    expect(sha256(back)).toBe(sha256(await readAll(generatedStream(total, seed))));
  });

  it("says when an object is missing, and deleting twice is fine", async () => {
    const objectKey = key("gone.pdf");
    expect(await storage.stat("product-files", objectKey)).toBeUndefined();
    await expect(storage.read("product-files", objectKey)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await storage.write("product-files", objectKey, streamOf(Buffer.from("x")));
    await storage.delete("product-files", objectKey);
    await storage.delete("product-files", objectKey);
    expect(await storage.stat("product-files", objectKey)).toBeUndefined();
  });

  it("moves an object to a new key; the old key is gone and a missing source is an error", async () => {
    const from = key("incoming.pdf");
    const to = key("checked/final.pdf");
    await storage.write("product-files", from, streamOf(Buffer.from("checked bytes")));
    await storage.move("product-files", from, to);
    expect(await storage.stat("product-files", from)).toBeUndefined();
    expect((await readAll(await storage.read("product-files", to))).toString()).toBe("checked bytes");
    await expect(storage.move("product-files", from, key("other.pdf"))).rejects.toBeInstanceOf(
      ObjectNotFoundError,
    );
  });

  it("refuses keys that could leave their folder", async () => {
    for (const bad of ["../escape.pdf", "seller/../../etc/passwd", "/absolute.pdf", ".hidden/x", "a//b"]) {
      await expect(storage.write("product-files", bad, streamOf(Buffer.from("x")))).rejects.toThrow(/Unsafe/);
    }
  });

  it("accepts a PUT to its signed upload target, then serves a signed download with the file's name", async () => {
    const objectKey = key("ebook.pdf");
    const bytes = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(5_000)]);
    const target = await storage.signedUploadTarget("product-files", objectKey, {
      sizeBytes: bytes.length,
      contentType: "application/pdf",
      expiresInSeconds: 60,
    });
    expect(target.method).toBe("PUT");
    const put = await fetch(harness.resolve(target.url), {
      method: "PUT",
      headers: target.headers,
      body: bytes,
    });
    expect(put.status).toBe(200);
    await put.arrayBuffer();
    expect(await storage.stat("product-files", objectKey)).toEqual({ sizeBytes: bytes.length });

    const url = await storage.signedDownloadUrl("product-files", objectKey, {
      fileName: "My Ebook.pdf",
      contentType: "application/pdf",
      expiresInSeconds: 60,
    });
    const download = await fetch(harness.resolve(url));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toContain('filename="My Ebook.pdf"');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("serves covers at their public URL", async () => {
    const objectKey = key("cover.jpg");
    await storage.write("product-covers", objectKey, streamOf(Buffer.from("jpeg bytes")), {
      contentType: "image/jpeg",
    });
    const response = await fetch(harness.resolve(storage.publicUrl(objectKey)));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("jpeg bytes");
  });

  it("lets a ZIP be inspected entry by entry through range reads", async () => {
    const objectKey = key("bundle.zip");
    const zip = zipArchive([
      { name: "readme.txt", data: randomBytes(100_000) },
      { name: "bin/setup.exe", data: Buffer.from("MZ") },
    ]);
    await storage.write("product-files", objectKey, streamOf(zip));
    const problem = await findZipProblem(storage, {
      bucket: "product-files",
      key: objectKey,
      sizeBytes: zip.length,
    });
    expect(problem).toMatch(/bin\/setup\.exe/);
  });

  it("inspects a ZIP of thousands of small files in a few reads (GETs on S3), every entry checked", async () => {
    const objectKey = key("pages.zip");
    const zip = zipArchive([...harmlessEntries(3_000), { name: "last.txt", data: Buffer.from("MZ") }]);
    await storage.write("product-files", objectKey, streamOf(zip));
    let reads = 0;
    const counted: Storage = {
      ...storage,
      read: (bucket, readKey, range) => {
        reads += 1;
        return storage.read(bucket, readKey, range);
      },
    };
    const problem = await findZipProblem(counted, {
      bucket: "product-files",
      key: objectKey,
      sizeBytes: zip.length,
    });
    expect(problem).toMatch(/last\.txt is a Windows program/);
    expect(reads).toBeLessThan(20);
  });
});
