import {
  COVER_IMAGE_FORMATS,
  claimedFormat,
  fileExtension,
  isProgramName,
  PRODUCT_FILE_FORMATS,
  type ProductFileFormat,
  UPLOAD_MESSAGES,
} from "../../../contracts/uploads";
import type { BucketName, Storage } from "../../adapters/storage/storage";
import { AppError } from "../../http/errors";
import type { VirusScanner } from "./clamav";
import {
  CENTRAL_DIRECTORY_HEADER,
  containsEicar,
  isZipContainer,
  sniffContent,
  zipEndRecords,
} from "./file-signatures";

export interface StoredObject {
  bucket: BucketName;
  key: string;
  sizeBytes: number;
}

/** What the server answers for a file it will not keep: 'Invalid file' with the reason in plain words. */
export const invalidFile = (reason: string) => new AppError("invalid_file", 400, reason);

const EDGE_BYTES = 64 * 1024;

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

/**
 * Reads only the first and last 64 KB: enough to recognise a format, find the EICAR signature, and find
 * a ZIP's end record (ZIP readers look for it in the last 64 KB, whatever comes before).
 */
async function readEdges(storage: Storage, object: StoredObject): Promise<{ head: Buffer; tail: Buffer }> {
  const head = await readRange(storage, object, 0, Math.min(object.sizeBytes, EDGE_BYTES));
  if (object.sizeBytes <= EDGE_BYTES) return { head, tail: head };
  const tailStart = Math.max(EDGE_BYTES, object.sizeBytes - EDGE_BYTES);
  return { head, tail: await readRange(storage, object, tailStart, object.sizeBytes - tailStart) };
}

async function readRange(storage: Storage, object: StoredObject, start: number, length: number) {
  return readAll(await storage.read(object.bucket, object.key, { start, end: start + length - 1 }));
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The sniffed format of the content; programs and the EICAR file are refused whatever they are named. */
async function sniffRefusingPrograms(head: Buffer, tail: Buffer): Promise<string | undefined> {
  const content = await sniffContent(head);
  if (content.program) throw invalidFile(`This file is ${content.program}. Programs can't be sold here.`);
  if (containsEicar(head) || containsEicar(tail)) {
    throw invalidFile("This file contains a virus test signature (EICAR) and was refused.");
  }
  return content.format;
}

// Beyond this many end records, a file was built to be slow to check: it is refused instead.
const MAX_ZIP_END_RECORDS = 16;

/**
 * Whether a ZIP archive sits at the end of this file, where ZIP readers look for one whatever comes
 * before it (a PDF with a ZIP appended opens as that ZIP). An end record counts once the central
 * directory it points at is really there, so stray bytes in compressed media are not mistaken for one.
 */
async function hasZipAtEnd(storage: Storage, object: StoredObject, tail: Buffer): Promise<boolean> {
  const records = zipEndRecords(tail, object.sizeBytes - tail.length);
  if (records.length > MAX_ZIP_END_RECORDS) return true;
  for (const record of records) {
    if (record.zip64) return true;
    for (const offset of record.directoryAt) {
      const found = await readRange(storage, object, offset, CENTRAL_DIRECTORY_HEADER.length);
      if (found.equals(CENTRAL_DIRECTORY_HEADER)) return true;
    }
  }
  return false;
}

async function scanForViruses(storage: Storage, object: StoredObject, scanner: VirusScanner | undefined) {
  if (!scanner) return;
  const result = await scanner(await storage.read(object.bucket, object.key));
  if (result.infected)
    throw invalidFile(`The virus scanner found malware in this file (${result.signature}).`);
}

const describeSniffed = (sniffed: string | undefined) =>
  sniffed ? `its content is a ${sniffed.toUpperCase()} file` : "its content is not recognised";

const PRODUCT_FORMATS = Object.keys(PRODUCT_CONTENT_RULES) as ProductFileFormat[];

/**
 * The format the content really is, which the name must agree with, since the buyer's computer opens
 * the file by its name: `book.pdf` must hold a PDF, and a PDF must not be named `book.txt` (or
 * `invoice.bat`). A name without an extension is held to its declared type; the file is then served
 * with the format's type, from which browsers name the download.
 */
function agreedFormat(file: { name: string; type: string }, sniffed: string | undefined, head: Buffer) {
  const extension = fileExtension(file.name);
  if (isProgramName(file.name)) throw invalidFile(UPLOAD_MESSAGES.programFile(extension));
  const claimed = claimedFormat(PRODUCT_FILE_FORMATS, file);
  if (extension && claimed !== extension) {
    const actual = PRODUCT_FORMATS.find((format) => PRODUCT_CONTENT_RULES[format].matches(sniffed, head));
    if (!actual) throw invalidFile(UPLOAD_MESSAGES.productFileInvalidType);
    throw invalidFile(
      `This file's name ends in .${extension}, but ${describeSniffed(sniffed ?? actual)}. Please rename it to end in .${actual} and upload it again.`,
    );
  }
  if (!claimed) throw invalidFile(UPLOAD_MESSAGES.productFileInvalidType);
  if (!PRODUCT_CONTENT_RULES[claimed].matches(sniffed, head)) {
    throw invalidFile(
      `This file is not a real ${PRODUCT_CONTENT_RULES[claimed].label}: ${describeSniffed(sniffed)}.`,
    );
  }
  return claimed;
}

/**
 * Checks a product file by its content: not a program, not the EICAR file, really the format its name
 * says, a ZIP with no program inside, no ZIP hidden at its end, and clean for the virus scanner when
 * one is configured. Throws 'Invalid file' with the reason; returns the content type to serve it with.
 */
export async function inspectProductFile(
  storage: Storage,
  object: StoredObject,
  file: { name: string; type: string },
  scanner?: VirusScanner,
): Promise<{ contentType: string }> {
  const { head, tail } = await readEdges(storage, object);
  const sniffed = await sniffRefusingPrograms(head, tail);
  const rule = PRODUCT_CONTENT_RULES[agreedFormat(file, sniffed, head)];
  if (isZipContainer(head)) {
    // yauzl is loaded with the first ZIP, not at start.
    const { findZipProblem } = await import("./zip-inspection");
    const problem = await findZipProblem(storage, object);
    if (problem) throw invalidFile(problem);
  } else if (await hasZipAtEnd(storage, object, tail)) {
    throw invalidFile(
      `This ${rule.label} has a ZIP archive attached at its end, which could hide programs. Please upload the ${rule.label} on its own, and any archive as a ZIP of its own.`,
    );
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
