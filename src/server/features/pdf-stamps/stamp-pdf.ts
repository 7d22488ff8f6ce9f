import { createReadStream, createWriteStream } from "node:fs";
import { type FileHandle, open, rm } from "node:fs/promises";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PDF_STAMP_LIMITS } from "../../../contracts/pdf-stamps";
import { arrayOf, nameOf, numberOf, PdfFile, PdfStampRefusal } from "./pdf-file";
import { PdfDict, type PdfObject, PdfRef, pdfName, pdfNumber, writeObject } from "./pdf-syntax";
import { helveticaWidth, literalString, winAnsiBytes } from "./stamp-text";

/**
 * Stamps a line of text at the foot of every page of a PDF with an incremental update (ISO 32000-1,
 * 7.5.6): the original bytes are kept as they are and new versions of the page objects are appended,
 * each page's content wrapped between two shared streams, `q` and `Q`, and followed by the stamp's own
 * small text stream (one per placement, shared by the pages that have it), plus a new cross-reference
 * section. Nothing is decompressed or rewritten, so memory follows the number of pages and objects
 * (see pdf-file.ts), not the size of the file; the update is written to disk as it is made.
 * What pages share (a content array, resources, fonts) is referenced, never copied per page, and the
 * update is bounded anyway: a file that would still grow past `input + a per-page allowance`, or take
 * longer than `maxSeconds`, is refused (and served unstamped).
 * pdf-lib was measured too (bench/stamp-pdf.ts): it loads and re-serialises the whole document.
 */

/** The stamp's look: small, grey, centred at the foot of the page as it is shown (rotation applied). */
const FONT_SIZE = 7;
const MIN_FONT_SIZE = 3;
const SIDE_MARGIN = 18;
const BASELINE = 10;
const GREY = "0.4";
/** US Letter: what readers assume for a page without a MediaBox. */
const DEFAULT_BOX = [0, 0, 612, 792] as const;
/**
 * The update may hold what the original already has (page dictionaries are written again, and a
 * page's own content array with them) plus this much per page (the stamp, the q/Q references, a
 * cross-reference entry: about 400 bytes) and a fixed part. More means shared objects are being
 * multiplied: each buyer's copy would be many times the original, so the file is refused.
 */
const UPDATE_BYTES_PER_PAGE = 2048;
const UPDATE_BYTES_FIXED = 64 * 1024;

export interface StampLimits {
  maxPages: number;
  /** A stamp taking longer than this is given up (it holds a worker slot and the event loop's time). */
  maxSeconds: number;
}

export interface StampOutcome {
  pages: number;
  /** Bytes appended to the original. */
  updateBytes: number;
}

/** Appends to the update file through a small buffer, knowing each byte's offset in the stamped file. */
class UpdateWriter {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private written = 0;
  constructor(
    private readonly file: FileHandle,
    /** The update starts where the original ends. */
    private readonly base: number,
  ) {}
  get offset(): number {
    return this.base + this.written + this.buffered;
  }
  get length(): number {
    return this.written + this.buffered;
  }
  async write(data: string | Buffer): Promise<void> {
    const bytes = typeof data === "string" ? Buffer.from(data, "latin1") : data;
    this.chunks.push(bytes);
    this.buffered += bytes.length;
    if (this.buffered >= 64 * 1024) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.buffered === 0) return;
    const data = Buffer.concat(this.chunks);
    this.chunks = [];
    this.buffered = 0;
    await this.file.write(data, 0, data.length);
    this.written += data.length;
  }
}

interface Inherited {
  resources?: { value: PdfObject; owner: number };
  mediaBox?: PdfObject;
  cropBox?: PdfObject;
  rotate?: PdfObject;
}

/**
 * Writes to `updatePath` what to append to the PDF at `inputPath` so every page carries `text`.
 * Throws PdfStampRefusal for a file it must not or cannot stamp (encrypted, damaged, too many pages).
 */
export async function writeStampUpdate(
  inputPath: string,
  updatePath: string,
  text: string,
  limits: Partial<StampLimits> = {},
): Promise<StampOutcome> {
  const input = await open(inputPath, "r");
  const output = await open(updatePath, "w");
  try {
    const { size } = await input.stat();
    const pdf = await PdfFile.open(input, size);
    const writer = new UpdateWriter(output, size);
    const pages = await appendUpdate(pdf, writer, winAnsiBytes(text), {
      maxPages: limits.maxPages ?? PDF_STAMP_LIMITS.maxPages,
      maxSeconds: limits.maxSeconds ?? PDF_STAMP_LIMITS.maxSeconds,
    });
    await writer.flush();
    return { pages, updateBytes: writer.length };
  } finally {
    await input.close();
    await output.close();
  }
}

/** The stamped file: the original's bytes, then the update's. */
export function stampedStream(inputPath: string, updatePath: string): Readable {
  const out = new PassThrough();
  void (async () => {
    // 1 MB reads: Node's default 64 KB chunks make copying a large file a third slower.
    await pipeline(createReadStream(inputPath, { highWaterMark: 1 << 20 }), out, { end: false });
    await pipeline(createReadStream(updatePath), out);
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

/** Stamps `inputPath` into `outputPath` (a whole file on disk: the tests and the benchmark). */
export async function stampPdfFile(
  inputPath: string,
  outputPath: string,
  text: string,
  limits?: Partial<StampLimits>,
): Promise<StampOutcome> {
  const updatePath = `${outputPath}.update`;
  try {
    const outcome = await writeStampUpdate(inputPath, updatePath, text, limits);
    await pipeline(stampedStream(inputPath, updatePath), createWriteStream(outputPath));
    return outcome;
  } finally {
    await rm(updatePath, { force: true });
  }
}

async function appendUpdate(pdf: PdfFile, writer: UpdateWriter, line: Buffer, limits: StampLimits) {
  const { maxPages } = limits;
  const deadline = performance.now() + limits.maxSeconds * 1000;
  const { trailer } = pdf.xref;
  let nextNum = pdf.xref.size;
  const offsets: Array<{ num: number; gen: number; offset: number }> = [];
  const writeIndirect = async (ref: PdfRef, body: string | Buffer, stream?: Buffer) => {
    offsets.push({ num: ref.num, gen: ref.gen, offset: writer.offset });
    await writer.write(`${ref.num} ${ref.gen} obj\n`);
    await writer.write(body);
    if (stream) {
      await writer.write("\nstream\n");
      await writer.write(stream);
      await writer.write("\nendstream");
    }
    await writer.write("\nendobj\n");
  };
  const writeStream = (ref: PdfRef, data: Buffer) =>
    writeIndirect(ref, writeObject(new PdfDict([["Length", pdfNumber(data.length)]])), data);

  // The original may not end with a line break.
  await writer.write("\n");
  const font = new PdfRef(nextNum++, 0);
  await writeIndirect(
    font,
    writeObject(
      new PdfDict([
        ["Type", pdfName("Font")],
        ["Subtype", pdfName("Type1")],
        ["BaseFont", pdfName("Helvetica")],
        ["Encoding", pdfName("WinAnsiEncoding")],
      ]),
    ),
  );
  // The page's own content goes between these two (shared by every page), so whatever state it
  // leaves behind is undone before the stamp draws.
  const save = new PdfRef(nextNum++, 0);
  await writeStream(save, Buffer.from("q\n"));
  const restore = new PdfRef(nextNum++, 0);
  await writeStream(restore, Buffer.from("\nQ\n"));

  const root = await pdf.resolve(trailer.get("Root"));
  const pagesRoot = root instanceof PdfDict ? root.get("Pages") : undefined;
  if (!(pagesRoot instanceof PdfRef)) throw new PdfStampRefusal("damaged", "no page tree");

  // Resources shared by several pages get one stamped copy each, and so do shared font dictionaries.
  const sharedResources = new Map<string, { resources: PdfRef; fontName: string }>();
  const sharedFonts = new Map<number, { fonts: PdfRef; fontName: string }>();
  // One stamp stream per placement (pages of one size share it), keyed by its bytes.
  const stampStreams = new Map<string, PdfRef>();
  // Whether a /Contents reference is a stream or an array: read once, however many pages share it.
  const contentKinds = new Map<number, "stream" | "array" | "other">();
  // A shared content array, wrapped once per stamp stream: `${array} ${stamp}`.
  const wrappedArrays = new Map<string, PdfRef>();
  const checkBounds = (pagesSoFar: number) => {
    if (performance.now() > deadline)
      throw new PdfStampRefusal("too-slow", `stamping took more than ${limits.maxSeconds} s`);
    const allowed = pdf.size + pagesSoFar * UPDATE_BYTES_PER_PAGE + UPDATE_BYTES_FIXED;
    if (writer.length > allowed)
      throw new PdfStampRefusal(
        "too-large-copy",
        `the update passed ${allowed} bytes after ${pagesSoFar} pages of a ${pdf.size}-byte file`,
      );
  };
  const visited = new Set<number>();
  const stack: Array<{ ref: PdfRef; inherited: Inherited }> = [{ ref: pagesRoot, inherited: {} }];
  let pages = 0;
  while (stack.length > 0) {
    const { ref, inherited } = stack.pop()!;
    if (visited.has(ref.num)) throw new PdfStampRefusal("damaged", "the page tree loops");
    visited.add(ref.num);
    checkBounds(pages);
    const node = await pdf.resolve(ref);
    if (!(node instanceof PdfDict))
      throw new PdfStampRefusal("damaged", `page tree node ${ref.num} is missing`);
    const own: Inherited = {
      resources:
        node.get("Resources") !== undefined
          ? { value: node.get("Resources")!, owner: ref.num }
          : inherited.resources,
      mediaBox: node.get("MediaBox") ?? inherited.mediaBox,
      cropBox: node.get("CropBox") ?? inherited.cropBox,
      rotate: node.get("Rotate") ?? inherited.rotate,
    };
    const type = nameOf(node.get("Type"));
    if (type === "Pages" || (type !== "Page" && node.get("Kids") !== undefined)) {
      const kids = arrayOf(await pdf.resolve(node.get("Kids")));
      for (let i = kids.length - 1; i >= 0; i--) {
        const kid = kids[i];
        if (kid instanceof PdfRef) stack.push({ ref: kid, inherited: own });
      }
      if (stack.length > maxPages * 2 + 1000)
        throw new PdfStampRefusal("too-many-pages", "page tree too large");
      continue;
    }
    if (++pages > maxPages) throw new PdfStampRefusal("too-many-pages", `more than ${maxPages} pages`);

    const { resources, fontName } = await stampedResources(own.resources, ref.num);
    const stamp = await stampStream(footerContent(fontName, await footerPlacement(pdf, own, line), line));
    const page = node
      .copy()
      .set("Contents", await stampedContents(node.get("Contents"), stamp))
      .set("Resources", resources);
    await writeIndirect(ref, writeObject(page));
    checkBounds(pages);
  }
  if (pages === 0) throw new PdfStampRefusal("damaged", "the document has no pages");

  async function stampStream(content: Buffer): Promise<PdfRef> {
    const key = content.toString("latin1");
    const known = stampStreams.get(key);
    if (known) return known;
    const ref = new PdfRef(nextNum++, 0);
    await writeStream(ref, content);
    stampStreams.set(key, ref);
    return ref;
  }

  /**
   * The page's new /Contents: its own content between `save` and `restore`, then the stamp. A content
   * array the page refers to (often shared by many pages) is wrapped once per stamp stream in an array
   * of its own, which the pages refer to: /Contents must be a stream or an array of streams, so the
   * array can't be nested, and copying it into every page multiplied the file.
   */
  async function stampedContents(contents: PdfObject | undefined, stamp: PdfRef): Promise<PdfObject> {
    if (contents instanceof PdfRef) {
      const kind = await contentKind(contents);
      if (kind === "stream") return [save, contents, restore, stamp];
      if (kind === "other") return [stamp];
      const key = `${contents.num} ${stamp.num}`;
      const known = wrappedArrays.get(key);
      if (known) return known;
      const items = arrayOf(await pdf.resolve(contents)).filter((item) => item instanceof PdfRef);
      const wrapped = new PdfRef(nextNum++, 0);
      await writeIndirect(wrapped, writeObject([save, ...items, restore, stamp]));
      wrappedArrays.set(key, wrapped);
      return wrapped;
    }
    // A page's own array is already in its dictionary: written again with it, once.
    const items = arrayOf(contents).filter((item) => item instanceof PdfRef);
    return items.length > 0 ? [save, ...items, restore, stamp] : [stamp];
  }

  async function contentKind(ref: PdfRef): Promise<"stream" | "array" | "other"> {
    const known = contentKinds.get(ref.num);
    if (known) return known;
    const target = await pdf.lookup(ref);
    const kind = target.stream ? "stream" : Array.isArray(target.value) ? "array" : "other";
    contentKinds.set(ref.num, kind);
    return kind;
  }

  /** The page's resources with the stamp's font added under a name they don't use yet. */
  async function stampedResources(
    source: Inherited["resources"],
    pageNum: number,
  ): Promise<{ resources: PdfDict | PdfRef; fontName: string }> {
    const key = !source
      ? "none"
      : source.value instanceof PdfRef
        ? `ref ${source.value.num}`
        : source.owner !== pageNum
          ? `node ${source.owner}`
          : undefined;
    const known = key ? sharedResources.get(key) : undefined;
    if (known) return known;
    const base = source ? await pdf.resolve(source.value) : null;
    const dict = base instanceof PdfDict ? base.copy() : new PdfDict();
    const { fonts, fontName } = await stampedFonts(dict.get("Font"));
    dict.set("Font", fonts);
    if (!key) return { resources: dict, fontName };
    const shared = { resources: new PdfRef(nextNum++, 0), fontName };
    await writeIndirect(shared.resources, writeObject(dict));
    sharedResources.set(key, shared);
    return shared;
  }

  /** The font dictionary with the stamp's font added; one that is an object of its own is copied once. */
  async function stampedFonts(
    value: PdfObject | undefined,
  ): Promise<{ fonts: PdfDict | PdfRef; fontName: string }> {
    const known = value instanceof PdfRef ? sharedFonts.get(value.num) : undefined;
    if (known) return known;
    const resolved = await pdf.resolve(value);
    const fonts = resolved instanceof PdfDict ? resolved.copy() : new PdfDict();
    let fontName = "FlatfeeStamp";
    for (let n = 1; fonts.get(fontName) !== undefined; n++) fontName = `FlatfeeStamp${n}`;
    fonts.set(fontName, font);
    if (!(value instanceof PdfRef)) return { fonts, fontName };
    const shared = { fonts: new PdfRef(nextNum++, 0), fontName };
    await writeIndirect(shared.fonts, writeObject(fonts));
    sharedFonts.set(value.num, shared);
    return shared;
  }

  await writeCrossReference(pdf, writer, offsets, nextNum);
  return pages;
}

interface Placement {
  fontSize: number;
  /** The text matrix: a rotation with the text's origin. */
  matrix: [number, number, number, number, number, number];
}

/** Where the line goes: centred on the bottom edge of the page as displayed, shrunk to fit. */
async function footerPlacement(pdf: PdfFile, page: Inherited, line: Buffer): Promise<Placement> {
  const box =
    (await boxOf(pdf, page.cropBox)) ?? (await boxOf(pdf, page.mediaBox)) ?? ([...DEFAULT_BOX] as Box);
  const [llx, lly, urx, ury] = box;
  const rotate =
    (((Math.round((numberOf(await pdf.resolve(page.rotate)) ?? 0) / 90) * 90) % 360) + 360) % 360;
  const sideways = rotate === 90 || rotate === 270;
  const width = sideways ? ury - lly : urx - llx;
  const height = sideways ? urx - llx : ury - lly;
  const fullWidth = helveticaWidth(line, FONT_SIZE);
  const fontSize = Math.max(
    MIN_FONT_SIZE,
    Math.min(FONT_SIZE, (FONT_SIZE * (width - 2 * SIDE_MARGIN)) / fullWidth),
  );
  const x = Math.max(0, (width - helveticaWidth(line, fontSize)) / 2);
  const y = Math.min(BASELINE, height / 4);
  // Shown coordinates (x right, y up on the displayed page) into the page's own space.
  const matrix: Placement["matrix"] =
    rotate === 90
      ? [0, 1, -1, 0, urx - y, lly + x]
      : rotate === 180
        ? [-1, 0, 0, -1, urx - x, ury - y]
        : rotate === 270
          ? [0, -1, 1, 0, llx + y, ury - x]
          : [1, 0, 0, 1, llx + x, lly + y];
  return { fontSize, matrix };
}

type Box = [number, number, number, number];

/** A rectangle as [llx lly urx ury]; undefined when absent or degenerate. */
async function boxOf(pdf: PdfFile, value: PdfObject | undefined): Promise<Box | undefined> {
  if (value === undefined) return undefined;
  const numbers = arrayOf(await pdf.resolve(value)).map((item) => numberOf(item));
  if (numbers.length !== 4) return undefined;
  const [a, b, c, d] = numbers;
  if (a === undefined || b === undefined || c === undefined || d === undefined) return undefined;
  const box: Box = [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
  return box[2] - box[0] > 1 && box[3] - box[1] > 1 ? box : undefined;
}

/** Draws the line in its own q … Q (the page's state was restored before it). */
function footerContent(fontName: string, { fontSize, matrix }: Placement, line: Buffer): Buffer {
  const numbers = matrix.map((n) => pdfNumber(n).text).join(" ");
  return Buffer.concat([
    Buffer.from(
      `\nq\nBT\n${writeObject(pdfName(fontName))} ${pdfNumber(fontSize).text} Tf\n${GREY} g\n${numbers} Tm\n`,
      "latin1",
    ),
    literalString(line),
    Buffer.from(" Tj\nET\nQ\n", "latin1"),
  ]);
}

/**
 * The update's cross-reference section, of the kind the file already uses: a classic table after a
 * table, a cross-reference stream after a stream (readers of PDF 1.5 files expect one).
 */
async function writeCrossReference(
  pdf: PdfFile,
  writer: UpdateWriter,
  offsets: Array<{ num: number; gen: number; offset: number }>,
  nextNum: number,
): Promise<void> {
  const { trailer, startxref, kind } = pdf.xref;
  const dict = new PdfDict();
  for (const key of ["Root", "Info", "ID"]) {
    const value = trailer.get(key);
    if (value !== undefined) dict.set(key, value);
  }
  dict.set("Prev", pdfNumber(startxref));
  if (kind === "table") {
    const sorted = [...offsets].sort((a, b) => a.num - b.num);
    const xrefOffset = writer.offset;
    await writer.write("xref\n");
    for (const run of consecutiveRuns(sorted)) {
      await writer.write(`${run[0]!.num} ${run.length}\n`);
      for (const entry of run) {
        await writer.write(
          `${String(entry.offset).padStart(10, "0")} ${String(entry.gen).padStart(5, "0")} n\r\n`,
        );
      }
    }
    dict.set("Size", pdfNumber(nextNum));
    await writer.write(`trailer\n${writeObject(dict)}\nstartxref\n${xrefOffset}\n%%EOF\n`);
    return;
  }
  const self = new PdfRef(nextNum, 0);
  const xrefOffset = writer.offset;
  const sorted = [...offsets, { num: self.num, gen: 0, offset: xrefOffset }].sort((a, b) => a.num - b.num);
  const offsetWidth = Math.max(4, Math.ceil(Math.log2(xrefOffset + 1) / 8));
  const rows = Buffer.alloc(sorted.length * (1 + offsetWidth + 2));
  let at = 0;
  for (const entry of sorted) {
    rows[at++] = 1;
    rows.writeUIntBE(entry.offset, at, offsetWidth);
    at += offsetWidth;
    rows.writeUInt16BE(entry.gen, at);
    at += 2;
  }
  const index = consecutiveRuns(sorted).flatMap((run) => [pdfNumber(run[0]!.num), pdfNumber(run.length)]);
  dict
    .set("Type", pdfName("XRef"))
    .set("Size", pdfNumber(nextNum + 1))
    .set("Index", index)
    .set("W", [pdfNumber(1), pdfNumber(offsetWidth), pdfNumber(2)])
    .set("Length", pdfNumber(rows.length));
  await writer.write(`${self.num} 0 obj\n${writeObject(dict)}\nstream\n`);
  await writer.write(rows);
  await writer.write(`\nendstream\nendobj\nstartxref\n${xrefOffset}\n%%EOF\n`);
}

function consecutiveRuns<T extends { num: number }>(sorted: T[]): T[][] {
  const runs: T[][] = [];
  for (const entry of sorted) {
    const run = runs.at(-1);
    if (run && run.at(-1)!.num + 1 === entry.num) run.push(entry);
    else runs.push([entry]);
  }
  return runs;
}
