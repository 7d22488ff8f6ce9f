import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDiskStorage } from "../../adapters/storage/local-disk";
import type { Storage } from "../../adapters/storage/storage";
import { minimalPdf, zipArchive } from "../uploads/test-fixtures";
import { ProductZip } from "./product-zip";

let root: string;
let storage: Storage;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "product-zip-"));
  storage = await localDiskStorage(root);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function openZip(bytes: Buffer): Promise<ProductZip> {
  const key = `zips/${Math.random().toString(36).slice(2)}.zip`;
  await storage.write("product-files", key, Readable.from([bytes]));
  return ProductZip.open(storage, key, bytes.length, "files.zip");
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The stream's caller spends a while in the database before it reads (longer on PostgreSQL): a refusal
 * found meanwhile must reach it when it reads, never escape as an error nobody listens for.
 */
describe("a ZIP entry read only after a pause", () => {
  const cases = [
    {
      name: "unpacks past its declared size",
      entry: {
        name: "b.pdf",
        data: Buffer.concat([minimalPdf(), Buffer.alloc(64 * 1024, 0x20)]),
        declaredSize: 200,
      },
      code: "zip_size_mismatch",
    },
    {
      name: "unpacks to less than declared",
      entry: { name: "short.pdf", data: minimalPdf(), declaredSize: 5000 },
      code: "zip_size_mismatch",
    },
  ];
  for (const { name, entry, code } of cases)
    it(`an entry that ${name} is refused when read`, async () => {
      const zip = await openZip(zipArchive([entry]));
      const { files } = await zip.files();
      const stream = await zip.entryStream(files[0]!);
      await sleep(100);
      await expect(readAll(stream)).rejects.toMatchObject({ code, status: 400 });
      zip.close();
    });

  it("an entry that cannot be inflated is refused as damaged when read", async () => {
    const bytes = zipArchive([{ name: "garbled.pdf", data: minimalPdf(), method: 8 }]).fill(0xff, 41, 49);
    const zip = await openZip(bytes);
    const { files } = await zip.files();
    const stream = await zip.entryStream(files[0]!);
    await sleep(100);
    await expect(readAll(stream)).rejects.toMatchObject({ code: "zip_damaged" });
    zip.close();
  });

  it("a sound entry reads whole, byte for byte", async () => {
    const data = Buffer.concat([minimalPdf(), Buffer.alloc(200 * 1024, 0x41)]);
    const zip = await openZip(zipArchive([{ name: "guide.pdf", data, method: 8 }]));
    const { files } = await zip.files();
    const stream = await zip.entryStream(files[0]!);
    await sleep(50);
    expect((await readAll(stream)).equals(data)).toBe(true);
    zip.close();
  });
});
