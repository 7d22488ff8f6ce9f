/**
 * Cover rendering (run by hand: `npx tsx bench/cover-images.ts [image]`; `--runs 5` for more runs).
 *
 * Renders one cover the way a completed upload does (renderCoverImages on the local disk driver: the
 * 1200x630 Open Graph JPEG and the WebP sizes) and reports the time per cover and the bytes of each
 * image, against what covers got before sizes (the Open Graph JPEG and a 600x315 WebP thumbnail) in the
 * same run. It also times AVIF at 1280 px (sharp's default effort 4, and effort 0), which decided
 * whether covers get AVIF too. Without an image it makes a photo-like 2400x1260 JPEG (smooth shapes
 * plus grain), which compresses like a photograph rather than like a flat test colour.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { localDiskStorage } from "../src/server/adapters/storage/local-disk";
import { renderCoverImages } from "../src/server/features/uploads/render-images";
import { coverImageKeys } from "../src/server/features/uploads/upload-keys";

const args = process.argv.slice(2);
const runsIndex = args.indexOf("--runs");
const runs = runsIndex === -1 ? 3 : Number(args[runsIndex + 1]);
const imagePath = args.find((arg, index) => !arg.startsWith("--") && args[index - 1] !== "--runs");

async function photoLikeImage(): Promise<Buffer> {
  const [width, height] = [2400, 1260];
  const pixels = await sharp(randomBytes(160 * 84 * 3), { raw: { width: 160, height: 84, channels: 3 } })
    .resize(width, height, { kernel: "cubic" })
    .raw()
    .toBuffer();
  const grain = randomBytes(pixels.length);
  for (let index = 0; index < pixels.length; index++) {
    pixels[index] = Math.max(0, Math.min(255, (pixels[index] ?? 0) + ((grain[index] ?? 0) % 17) - 8));
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The best of `runs` timings in ms, and the last result. */
async function best<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  let ms = Number.POSITIVE_INFINITY;
  let result: T | undefined;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    result = await work();
    ms = Math.min(ms, performance.now() - started);
  }
  return { ms: Math.round(ms), result: result as T };
}

const source = imagePath ? await readFile(imagePath) : await photoLikeImage();
const { width, height } = await sharp(source).metadata();
console.log(
  `source: ${imagePath ?? "photo-like JPEG"}, ${width}x${height}, ${source.length} bytes, best of ${runs}`,
);

const root = await mkdtemp(path.join(tmpdir(), "bench-covers-"));
try {
  const storage = await localDiskStorage(root, { secret: "bench" });
  const object = { bucket: "product-files" as const, key: "seller/source.img", sizeBytes: source.length };
  await storage.write(object.bucket, object.key, Readable.from([source]));

  const now = await best(async () => {
    const keys = coverImageKeys(`seller/${Date.now()}-${randomBytes(8).toString("hex")}.img`);
    return { keys, ...(await renderCoverImages(storage, object, keys)) };
  });
  console.log(`\nnow: Open Graph JPEG + ${now.result.variants.length} WebP sizes: ${now.ms} ms per cover`);
  const openGraphBytes = (await storage.stat("product-covers", now.result.keys.openGraph))?.sizeBytes;
  console.log(`  1200x630 JPEG (Open Graph): ${openGraphBytes} bytes`);
  for (const variant of now.result.variants) {
    const bytes = (await storage.stat("product-covers", variant.key))?.sizeBytes;
    console.log(`  ${variant.width}x${variant.height} WebP: ${bytes} bytes`);
  }
  console.log(`  all together: ${now.result.sizeBytes} bytes`);

  const decode = () => sharp(source, { animated: false }).rotate();
  const before = await best(async () => {
    const openGraph = await decode()
      .resize(1200, 630, { fit: "cover" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
    const thumbnail = await decode().resize(600, 315, { fit: "cover" }).webp({ quality: 80 }).toBuffer();
    return { openGraph, thumbnail };
  });
  console.log(`\nbefore: Open Graph JPEG + 600x315 WebP thumbnail: ${before.ms} ms per cover`);
  console.log(`  600x315 WebP thumbnail: ${before.result.thumbnail.length} bytes`);

  console.log("\nAVIF at 1280x672 (not made: see bench/README.md)");
  for (const effort of [4, 0]) {
    const avif = await best(() =>
      decode().resize(1280, 672, { fit: "cover" }).avif({ quality: 50, effort }).toBuffer(),
    );
    console.log(`  effort ${effort}: ${avif.ms} ms, ${avif.result.length} bytes`);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
