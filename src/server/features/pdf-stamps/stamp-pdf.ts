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
 * each page's content wrapped as `q … Q` and followed by one small text stream, plus a new
 * cross-reference section. Nothing is decompressed or rewritten, so memory follows the number of pages
 * and objects (see pdf-file.ts), not the size of the file; the update is written to disk as it is made.
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
  limits: { maxPages: number } = PDF_STAMP_LIMITS,
): Promise<StampOutcome> {
  const input = await open(inputPath, "r");
  const output = await open(updatePath, "w");
  try {
    const { size } = await input.stat();
    const pdf = await PdfFile.open(input, size);
    const writer = new UpdateWriter(output, size);
    const pages = await appendUpdate(pdf, writer, winAnsiBytes(text), limits.maxPages);
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
  limits?: { maxPages: number },
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

async function appendUpdate(pdf: PdfFile, writer: UpdateWriter, line: Buffer, maxPages: number) {
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
  // Saves the graphics state before the page's own content, which the stamp restores before drawing.
  const save = new PdfRef(nextNum++, 0);
  await writeStream(save, Buffer.from("q\n"));

  const root = await pdf.resolve(trailer.get("Root"));
  const pagesRoot = root instanceof PdfDict ? root.get("Pages") : undefined;
  if (!(pagesRoot instanceof PdfRef)) throw new PdfStampRefusal("damaged", "no page tree");

  // Resources shared by several pages get one stamped copy each.
  const sharedResources = new Map<string, { resources: PdfRef; fontName: string }>();
  const visited = new Set<number>();
  const stack: Array<{ ref: PdfRef; inherited: Inherited }> = [{ ref: pagesRoot, inherited: {} }];
  let pages = 0;
  while (stack.length > 0) {
    const { ref, inherited } = stack.pop()!;
    if (visited.has(ref.num)) throw new PdfStampRefusal("damaged", "the page tree loops");
    visited.add(ref.num);
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
    const footer = new PdfRef(nextNum++, 0);
    const placement = await footerPlacement(pdf, own, line);
    await writeStream(footer, footerContent(fontName, placement, line));
    const contents = await contentStreams(pdf, node.get("Contents"));
    const page = node
      .copy()
      .set("Contents", [save, ...contents, footer])
      .set("Resources", resources);
    await writeIndirect(ref, writeObject(page));
  }
  if (pages === 0) throw new PdfStampRefusal("damaged", "the document has no pages");

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
    const fontsValue = await pdf.resolve(dict.get("Font"));
    const fonts = fontsValue instanceof PdfDict ? fontsValue.copy() : new PdfDict();
    let fontName = "FlatfeeStamp";
    for (let n = 1; fonts.get(fontName) !== undefined; n++) fontName = `FlatfeeStamp${n}`;
    fonts.set(fontName, font);
    dict.set("Font", fonts);
    if (!key) return { resources: dict, fontName };
    const shared = { resources: new PdfRef(nextNum++, 0), fontName };
    await writeIndirect(shared.resources, writeObject(dict));
    sharedResources.set(key, shared);
    return shared;
  }

  await writeCrossReference(pdf, writer, offsets, nextNum);
  return pages;
}

/** The page's content streams as a list of references (`Contents` may be one, an array, or absent). */
async function contentStreams(pdf: PdfFile, contents: PdfObject | undefined): Promise<PdfObject[]> {
  if (contents instanceof PdfRef) {
    const target = await pdf.lookup(contents);
    if (target.stream) return [contents];
    return arrayOf(target.value).filter((item) => item instanceof PdfRef);
  }
  return arrayOf(contents).filter((item) => item instanceof PdfRef);
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

/** Restores the state saved before the page's content, then draws the line in its own q … Q. */
function footerContent(fontName: string, { fontSize, matrix }: Placement, line: Buffer): Buffer {
  const numbers = matrix.map((n) => pdfNumber(n).text).join(" ");
  return Buffer.concat([
    Buffer.from(
      `\nQ\nq\nBT\n${writeObject(pdfName(fontName))} ${pdfNumber(fontSize).text} Tf\n${GREY} g\n${numbers} Tm\n`,
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
