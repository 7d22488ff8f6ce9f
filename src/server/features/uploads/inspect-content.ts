import { fileTypeFromBuffer } from "file-type";
import {
  COVER_IMAGE_FORMATS,
  PRODUCT_FILE_FORMATS,
  type ProductFileFormat,
} from "../../../contracts/uploads";
import type { BucketName, Storage } from "../../adapters/storage/storage";
import { AppError } from "../../http/errors";
import type { VirusScanner } from "./clamav";
import { containsEicar, executableKind, isZipContainer } from "./file-signatures";
import { findZipProblem } from "./zip-inspection";

export interface StoredObject {
  bucket: BucketName;
  key: string;
  sizeBytes: number;
}

/** What the server answers for a file it will not keep: 'Invalid file' with the reason in plain words. */
export const invalidFile = (reason: string) => new AppError("invalid_file", 400, reason);

const EDGE_BYTES = 64 * 1024;

// Types file-type recognises that are programs or installers, whatever the file is called.
const PROGRAM_TYPES = new Set([
  "exe",
  "elf",
  "macho",
  "msi",
  "apk",
  "jar",
  "dex",
  "deb",
  "rpm",
  "dmg",
  "class",
  "wasm",
  "lnk",
]);

interface ContentRule {
  label: string;
  contentType: string;
  matches(sniffedExtension: string | undefined, head: Buffer): boolean;
}

const sniffedAs =
  (...extensions: string[]) =>
  (sniffed: string | undefined) =>
    sniffed !== undefined && extensions.includes(sniffed);
const zipContainer = (_sniffed: string | undefined, head: Buffer) => isZipContainer(head);

/** What the content of each allowed product format must look like. ZIP-based formats are all checked as ZIPs. */
const PRODUCT_CONTENT_RULES: Record<ProductFileFormat, ContentRule> = {
  pdf: { label: "PDF", contentType: PRODUCT_FILE_FORMATS.pdf[0], matches: sniffedAs("pdf", "ai") },
  zip: { label: "ZIP", contentType: PRODUCT_FILE_FORMATS.zip[0], matches: zipContainer },
  mp3: { label: "MP3", contentType: PRODUCT_FILE_FORMATS.mp3[0], matches: sniffedAs("mp3") },
  mp4: {
    label: "MP4",
    contentType: PRODUCT_FILE_FORMATS.mp4[0],
    matches: sniffedAs("mp4", "m4v", "m4a", "mov"),
  },
  epub: { label: "EPUB", contentType: PRODUCT_FILE_FORMATS.epub[0], matches: zipContainer },
  doc: { label: "DOC", contentType: PRODUCT_FILE_FORMATS.doc[0], matches: sniffedAs("cfb", "doc") },
  docx: { label: "DOCX", contentType: PRODUCT_FILE_FORMATS.docx[0], matches: zipContainer },
};

export type ImageFormat = "jpg" | "png" | "webp" | "gif" | "svg";
const RASTER_FORMATS = new Set<string>(["jpg", "png", "webp", "gif"]);

/** Reads only the first and last 64 KB: enough to recognise a format and find the EICAR signature. */
async function readEdges(storage: Storage, object: StoredObject): Promise<{ head: Buffer; tail: Buffer }> {
  const head = await readAll(
    await storage.read(object.bucket, object.key, {
      start: 0,
      end: Math.min(object.sizeBytes, EDGE_BYTES) - 1,
    }),
  );
  if (object.sizeBytes <= EDGE_BYTES) return { head, tail: head };
  const tailStart = Math.max(EDGE_BYTES, object.sizeBytes - EDGE_BYTES);
  const tail = await readAll(
    await storage.read(object.bucket, object.key, { start: tailStart, end: object.sizeBytes - 1 }),
  );
  return { head, tail };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The sniffed format of the content; programs and the EICAR file are refused whatever they are named. */
async function sniffRefusingPrograms(head: Buffer, tail: Buffer): Promise<string | undefined> {
  const kind = executableKind(head);
  if (kind) throw invalidFile(`This file is ${kind}. Programs can't be sold here.`);
  if (containsEicar(head) || containsEicar(tail)) {
    throw invalidFile("This file contains a virus test signature (EICAR) and was refused.");
  }
  const sniffed = (await fileTypeFromBuffer(head))?.ext;
  if (sniffed && PROGRAM_TYPES.has(sniffed)) {
    throw invalidFile(
      `This file is a program or installer (${sniffed.toUpperCase()}). Programs can't be sold here.`,
    );
  }
  return sniffed;
}

async function scanForViruses(storage: Storage, object: StoredObject, scanner: VirusScanner | undefined) {
  if (!scanner) return;
  const result = await scanner(await storage.read(object.bucket, object.key));
  if (result.infected)
    throw invalidFile(`The virus scanner found malware in this file (${result.signature}).`);
}

const describeSniffed = (sniffed: string | undefined) =>
  sniffed ? `its content is a ${sniffed.toUpperCase()} file` : "its content is not recognised";

/**
 * Checks a product file by its content: not a program, not the EICAR file, really the format its name
 * or type claims, a ZIP with no program inside, and clean for the virus scanner when one is configured.
 * Throws 'Invalid file' with the reason; returns the content type to serve it with.
 */
export async function inspectProductFile(
  storage: Storage,
  object: StoredObject,
  claimed: ProductFileFormat,
  scanner?: VirusScanner,
): Promise<{ contentType: string }> {
  const { head, tail } = await readEdges(storage, object);
  const sniffed = await sniffRefusingPrograms(head, tail);
  const rule = PRODUCT_CONTENT_RULES[claimed];
  if (!rule.matches(sniffed, head)) {
    throw invalidFile(`This file is not a real ${rule.label}: ${describeSniffed(sniffed)}.`);
  }
  if (isZipContainer(head)) {
    const problem = await findZipProblem(storage, object);
    if (problem) throw invalidFile(problem);
  }
  await scanForViruses(storage, object, scanner);
  return { contentType: rule.contentType };
}

const looksLikeSvg = (head: Buffer) => /<svg[\s>]/i.test(head.toString("utf8"));

/** Checks an image the same way (programs, EICAR, virus scanner) and says which allowed format it really is. */
export async function inspectImage(
  storage: Storage,
  object: StoredObject,
  scanner?: VirusScanner,
): Promise<{ format: ImageFormat }> {
  const { head, tail } = await readEdges(storage, object);
  const sniffed = await sniffRefusingPrograms(head, tail);
  let format: ImageFormat | undefined;
  if (sniffed && RASTER_FORMATS.has(sniffed)) format = sniffed as ImageFormat;
  else if ((!sniffed || sniffed === "xml") && looksLikeSvg(head)) format = "svg";
  if (!format) {
    const allowed = Object.keys(COVER_IMAGE_FORMATS).join(", ").toUpperCase();
    throw invalidFile(
      `This file is not a real image: ${describeSniffed(sniffed)}. Allowed formats: ${allowed}.`,
    );
  }
  await scanForViruses(storage, object, scanner);
  return { format };
}
