import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stampLine } from "../../../contracts/pdf-stamps";
import { PdfStampRefusal } from "./pdf-file";
import { type StampLimits, stampPdfFile } from "./stamp-pdf";
import { helveticaWidth, winAnsiBytes } from "./stamp-text";
import {
  handWrittenPdf,
  lastContentOfEachPage,
  samplePdf,
  selfReferentialObjectStreamPdf,
  sharedContentsPdf,
} from "./test-pdfs";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "stamp-pdf-test-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const LINE = stampLine("buyer@example.com", "ord_abc123");

async function stamp(bytes: Buffer, line = LINE, limits?: Partial<StampLimits>) {
  const input = path.join(dir, `in-${Math.random()}.pdf`);
  const output = path.join(dir, `out-${Math.random()}.pdf`);
  await writeFile(input, bytes);
  const outcome = await stampPdfFile(input, output, line, limits);
  return { outcome, bytes: await readFile(output) };
}

/** The bytes of stream object `num`, as text. */
function contentOf(document: PDFDocument, num: number): string {
  const stream = document.context.lookup(PDFRef.of(num));
  return stream instanceof PDFRawStream ? Buffer.from(stream.contents).toString("latin1") : "";
}

async function refusalOf(bytes: Buffer, limits?: Partial<StampLimits>) {
  const error = await stamp(bytes, LINE, limits).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(PdfStampRefusal);
  return (error as PdfStampRefusal).reason;
}

describe("stampPdfFile", () => {
  it.each([
    ["a PDF 1.5 file (cross-reference stream, object streams)", true],
    ["a classic file (cross-reference table)", false],
  ])("stamps every page of %s, which still opens with its pages", async (_, objectStreams) => {
    const original = await samplePdf({ pages: 4, objectStreams });
    const { outcome, bytes } = await stamp(original);

    expect(outcome.pages).toBe(4);
    // An incremental update: the original bytes come first, unchanged.
    expect(bytes.subarray(0, original.length).equals(original)).toBe(true);
    expect(bytes.toString("latin1")).toContain("Licensed to buyer@example.com \xb7 order ord_abc123");
    const reopened = await PDFDocument.load(bytes);
    expect(reopened.getPageCount()).toBe(4);
    const stamps = await lastContentOfEachPage(bytes);
    expect(stamps).toHaveLength(4);
    for (const content of stamps) {
      expect(content).toContain("(Licensed to buyer@example.com \xb7 order ord_abc123) Tj");
      expect(content).toMatch(/^\nq\nBT\n\/FlatfeeStamp 7 Tf/);
    }
    // The pages' own drawing is still there, between the shared q and Q; pages of one size share a stamp.
    const document = await PDFDocument.load(bytes);
    const contents = document.getPages().map((page) => page.node.Contents()?.toString());
    expect(contents[0]).toMatch(/^\[ \d+ 0 R \d+ 0 R \d+ 0 R \d+ 0 R \]$/);
    const [save, , restore, stampRef] = [...contents[0]!.matchAll(/(\d+) 0 R/g)].map((match) => match[1]);
    expect(contentOf(document, Number(save))).toBe("q\n");
    expect(contentOf(document, Number(restore))).toBe("\nQ\n");
    for (const each of contents)
      expect(each).toMatch(new RegExp(`^\\[ ${save} 0 R \\d+ 0 R ${restore} 0 R ${stampRef} 0 R \\]$`));
  });

  it("handles inherited resources and boxes, content arrays, pages with no content, rotation", async () => {
    const { outcome, bytes } = await stamp(handWrittenPdf());
    expect(outcome.pages).toBe(2);
    const document = await PDFDocument.load(bytes);
    expect(document.getPageCount()).toBe(2);
    const [first, second] = await lastContentOfEachPage(bytes);
    // Centred in the CropBox [20 20 592 772], 10 pt above its bottom edge.
    expect(first).toMatch(/1 0 0 1 [\d.]+ 30 Tm/);
    // Rotated 270 degrees: the line runs up the page's own left edge so it reads across the shown foot.
    expect(second).toMatch(/0 -1 1 0 10 [\d.]+ Tm/);
    // The first page keeps its font (inherited) and gains the stamp's, in a copy of the resources.
    const resources = document.getPage(0).node.Resources();
    expect(resources?.toString()).toMatch(/\/F1 5 0 R/);
    expect(resources?.toString()).toMatch(/\/FlatfeeStamp \d+ 0 R/);
    // Both contents of the array page are kept, between the saved and restored state; the page with
    // no content has only the stamp.
    expect(document.getPage(0).node.Contents()?.toString()).toMatch(
      /^\[ \d+ 0 R 6 0 R 7 0 R \d+ 0 R \d+ 0 R \]$/,
    );
    expect(document.getPage(1).node.Contents()?.toString()).toMatch(/^\[ \d+ 0 R \]$/);
  });

  it("refers to a content array that pages share instead of copying it into each: the copy stays small", async () => {
    const original = sharedContentsPdf({ pages: 100, refs: 10_000 });
    const { outcome, bytes } = await stamp(original);

    expect(outcome.pages).toBe(100);
    // Copying the array into every page made this 100 times the original.
    expect(bytes.length).toBeLessThan(original.length * 2 + 100 * 1024);
    const stamps = await lastContentOfEachPage(bytes);
    expect(stamps).toHaveLength(100);
    for (const content of stamps)
      expect(content).toContain("(Licensed to buyer@example.com \xb7 order ord_abc123) Tj");
    // Every page refers to one wrapped array: q, the 10,000 original references, Q, the stamp.
    const document = await PDFDocument.load(bytes);
    const refs = new Set(
      document.getPages().map((page) => page.node.get(PDFName.of("Contents"))?.toString()),
    );
    expect(refs.size).toBe(1);
    const wrapped = document.getPage(0).node.Contents() as PDFArray;
    expect(wrapped.size()).toBe(10_003);
    expect(wrapped.get(1)?.toString()).toBe("4 0 R");
    expect(contentOf(document, Number(wrapped.get(0)!.toString().split(" ")[0]))).toBe("q\n");
    expect(contentOf(document, Number(wrapped.get(10_001)!.toString().split(" ")[0]))).toBe("\nQ\n");
  });

  it("refuses a file whose copy would still grow far past the original, and one that takes too long", async () => {
    // Each page has its stamp in a place of its own, so the shared array is wrapped once per page.
    expect(await refusalOf(sharedContentsPdf({ pages: 100, refs: 10_000, sizes: true }))).toBe(
      "too-large-copy",
    );
    expect(await refusalOf(await samplePdf({ pages: 2 }), { maxSeconds: 0 })).toBe("too-slow");
  });

  it("stamps a file that was already updated (a /Prev chain), twice over", async () => {
    const once = await stamp(await samplePdf({ pages: 2 }), stampLine("first@example.com", "ord_1"));
    const twice = await stamp(once.bytes, stampLine("second@example.com", "ord_2"));
    expect((await PDFDocument.load(twice.bytes)).getPageCount()).toBe(2);
    const stamps = await lastContentOfEachPage(twice.bytes);
    expect(stamps.every((content) => content.includes("second@example.com"))).toBe(true);
  });

  it("uses a font name the page's resources don't have yet", async () => {
    const document = await PDFDocument.create();
    const page = document.addPage();
    const font = await document.embedFont(StandardFonts.Helvetica);
    page.drawText("x", { font });
    const fonts = page.node.Resources()!.lookup(PDFName.of("Font"), PDFDict);
    fonts.set(PDFName.of("FlatfeeStamp"), font.ref);
    const { bytes } = await stamp(Buffer.from(await document.save()));
    const [content] = await lastContentOfEachPage(bytes);
    expect(content).toContain("/FlatfeeStamp1 7 Tf");
  });

  it("shrinks the line to fit a narrow page, and keeps it on the page", async () => {
    const document = await PDFDocument.create();
    document.addPage([150, 150]);
    const { bytes } = await stamp(Buffer.from(await document.save()));
    const [content] = await lastContentOfEachPage(bytes);
    const size = Number(/FlatfeeStamp ([\d.]+) Tf/.exec(content!)![1]);
    expect(size).toBeLessThan(7);
    expect(helveticaWidth(winAnsiBytes(LINE), size)).toBeLessThanOrEqual(150 - 36 + 0.01);
  });

  it("refuses encrypted, damaged, page-less and non-PDF files, and more pages than allowed", async () => {
    expect(await refusalOf(handWrittenPdf("/Encrypt << /Filter /Standard /V 1 /R 2 >> "))).toBe("encrypted");
    const sample = await samplePdf({ pages: 2 });
    expect(await refusalOf(sample.subarray(0, sample.length - 200))).toBe("damaged");
    expect(await refusalOf(Buffer.concat([sample.subarray(0, 2000), Buffer.alloc(3000, 0x20)]))).toBe(
      "damaged",
    );
    const empty = Buffer.from(await (await PDFDocument.create()).save({ addDefaultPage: false }));
    expect(await refusalOf(empty)).toBe("damaged");
    expect(await refusalOf(Buffer.from("PK\x03\x04 not a pdf"))).toBe("not-pdf");
    expect(await refusalOf(await samplePdf({ pages: 3 }), { maxPages: 2 })).toBe("too-many-pages");
  });

  it("refuses an object stream whose length is kept inside itself, instead of reading it forever", async () => {
    expect(await refusalOf(selfReferentialObjectStreamPdf())).toBe("damaged");
  });

  it("writes the middle dot as WinAnsi and anything outside it as ?", () => {
    expect(winAnsiBytes("a · b ☃").toString("latin1")).toBe("a \xb7 b ?");
  });

  it("measures Helvetica as pdf-lib does", async () => {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    const sample = "Licensed to Jane.O'Neil+shop_1@Example-Mail.com (order ord_AZaz09-_) {[~|^`]}!?#$%&*";
    // Character by character: pdf-lib's measure of a whole string adds kerning, which Tj does not apply.
    const unkerned = [...sample].reduce((sum, char) => sum + font.widthOfTextAtSize(char, 10), 0);
    expect(helveticaWidth(winAnsiBytes(sample), 10)).toBeCloseTo(unkerned, 5);
    expect(helveticaWidth(winAnsiBytes("·"), 10)).toBeCloseTo(font.widthOfTextAtSize("·", 10), 5);
  });
});
