import { Readable } from "node:stream";
import sharp, { type Sharp } from "sharp";
import { COVER_IMAGE_SIZE } from "../../../contracts/uploads";
import type { Storage } from "../../adapters/storage/storage";
import type { StoredCoverVariant } from "../../db/schema";
import { invalidFile, type StoredObject } from "./inspect-content";

export const PROFILE_PICTURE_SIDE = 400;

// sharp decodes the whole image into memory whatever we do, so the (size-capped: 10 MB covers, 5 MB
// pictures) source is read into a buffer rather than streamed.
async function readSource(storage: Storage, object: StoredObject): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(object.bucket, object.key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const unreadableImage = () =>
  invalidFile("This image could not be read. Please upload a valid JPG, PNG, WEBP, GIF or SVG.");

async function render(pipeline: Sharp): Promise<Buffer> {
  try {
    return await pipeline.toBuffer();
  } catch {
    throw unreadableImage();
  }
}

/**
 * Decoding is refused past 40 megapixels (8000x5000): a small file can declare a huge image (a
 * "decompression bomb") that would take gigabytes of memory to decode.
 */
export const MAX_INPUT_PIXELS = 40_000_000;

// Only the first frame of an animation; SVGs are rasterised (librsvg runs no script and loads nothing external).
const decode = (source: Buffer) =>
  sharp(source, { animated: false, failOn: "error", limitInputPixels: MAX_INPUT_PIXELS }).rotate();

/** Width and height as shown, EXIF rotation applied (a portrait photo may be stored sideways). */
async function orientedSize(input: Buffer): Promise<{ width: number; height: number }> {
  try {
    return (await decode(input).metadata()).autoOrient;
  } catch {
    throw unreadableImage();
  }
}

/**
 * The sizes worth making for an image: those no wider than the part of it the Open Graph ratio keeps
 * (a larger size would only be an upscaled copy), and always the smallest, so every cover has one.
 */
async function sizesToMake(input: Buffer, planned: StoredCoverVariant[]): Promise<StoredCoverVariant[]> {
  const { width, height } = await orientedSize(input);
  const croppedWidth = Math.min(width, (height * COVER_IMAGE_SIZE.width) / COVER_IMAGE_SIZE.height);
  const fitting = planned.filter((variant) => variant.width <= croppedWidth);
  return fitting.length > 0 ? fitting : planned.slice(0, 1);
}

/**
 * WebP quality of the cover sizes: libwebp's own default (75) rather than sharp's (80). Covers weigh
 * 11-30% less (bench/cover-images.ts: 960 px 114 KB to 100 KB; a blurred-noise cover 37 KB to 26 KB),
 * which a phone on a slow network feels on every store and product page. A slower effort (6) was
 * measured too: no smaller, 60% slower.
 */
const COVER_WEBP_QUALITY = 75;

/**
 * A cover becomes new images in product-covers: the Open Graph image (1200x630 JPEG, what link
 * previews fetch, since they want JPEG or PNG) and the responsive WebP sizes pages show (srcset).
 * The original, whatever it was (SVG included), is never served. Returns the sizes made.
 */
export async function renderCoverImages(
  storage: Storage,
  source: StoredObject,
  keys: { openGraph: string; variants: StoredCoverVariant[] },
): Promise<{ sizeBytes: number; variants: StoredCoverVariant[] }> {
  const input = await readSource(storage, source);
  // One image at a time, each written before the next is made: two decodes of the same large image at
  // once would double the peak memory.
  const openGraph = await render(
    decode(input)
      .resize(COVER_IMAGE_SIZE.width, COVER_IMAGE_SIZE.height, { fit: "cover" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, mozjpeg: true }),
  );
  await storage.write("product-covers", keys.openGraph, Readable.from([openGraph]), {
    contentType: "image/jpeg",
  });
  let sizeBytes = openGraph.length;
  const variants = await sizesToMake(input, keys.variants);
  for (const variant of variants) {
    const image = await render(
      decode(input)
        .resize(variant.width, variant.height, { fit: "cover" })
        .webp({ quality: COVER_WEBP_QUALITY }),
    );
    await storage.write("product-covers", variant.key, Readable.from([image]), { contentType: "image/webp" });
    sizeBytes += image.length;
  }
  return { sizeBytes, variants };
}

/** A profile picture becomes a 400x400 WebP square under its own key. */
export async function renderProfilePicture(
  storage: Storage,
  source: StoredObject,
  key: string,
): Promise<{ sizeBytes: number }> {
  const input = await readSource(storage, source);
  const picture = await render(
    decode(input).resize(PROFILE_PICTURE_SIDE, PROFILE_PICTURE_SIDE, { fit: "cover" }).webp({ quality: 85 }),
  );
  await storage.write("product-covers", key, Readable.from([picture]), { contentType: "image/webp" });
  return { sizeBytes: picture.length };
}
