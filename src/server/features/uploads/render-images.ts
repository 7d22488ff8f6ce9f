import { Readable } from "node:stream";
import sharp, { type Sharp } from "sharp";
import { COVER_IMAGE_SIZE } from "../../../contracts/uploads";
import type { Storage } from "../../adapters/storage/storage";
import { invalidFile, type StoredObject } from "./inspect-content";

export const THUMBNAIL_SIZE = { width: 600, height: 315 } as const;
export const PROFILE_PICTURE_SIDE = 400;

// sharp decodes the whole image into memory whatever we do, so the (size-capped: 10 MB covers, 5 MB
// pictures) source is read into a buffer rather than streamed.
async function readSource(storage: Storage, object: StoredObject): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(object.bucket, object.key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function render(pipeline: Sharp): Promise<Buffer> {
  try {
    return await pipeline.toBuffer();
  } catch {
    throw invalidFile("This image could not be read. Please upload a valid JPG, PNG, WEBP, GIF or SVG.");
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

/**
 * A cover becomes two new images in product-covers: the Open Graph image (1200x630 JPEG, what link
 * previews fetch) and a thumbnail (600x315 WebP). The original, whatever it was (SVG included), is never served.
 */
export async function renderCoverImages(
  storage: Storage,
  source: StoredObject,
  keys: { openGraph: string; thumbnail: string },
): Promise<{ sizeBytes: number }> {
  const input = await readSource(storage, source);
  // One after the other: two decodes of the same large image at once would double the peak memory.
  const openGraph = await render(
    decode(input)
      .resize(COVER_IMAGE_SIZE.width, COVER_IMAGE_SIZE.height, { fit: "cover" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, mozjpeg: true }),
  );
  const thumbnail = await render(
    decode(input).resize(THUMBNAIL_SIZE.width, THUMBNAIL_SIZE.height, { fit: "cover" }).webp({ quality: 80 }),
  );
  await storage.write("product-covers", keys.openGraph, Readable.from([openGraph]), {
    contentType: "image/jpeg",
  });
  await storage.write("product-covers", keys.thumbnail, Readable.from([thumbnail]), {
    contentType: "image/webp",
  });
  return { sizeBytes: openGraph.length + thumbnail.length };
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
