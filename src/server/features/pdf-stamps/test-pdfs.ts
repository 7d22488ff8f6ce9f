import { degrees, PDFArray, PDFDocument, PDFName, PDFRawStream, StandardFonts } from "pdf-lib";

/** PDFs made in code for the stamping tests (no binary fixtures), and how to read a stamped one back. */

/** A real document from pdf-lib: `objectStreams` gives a PDF 1.5 file (cross-reference stream). */
export async function samplePdf(
  options: { pages?: number; objectStreams?: boolean; rotate?: number } = {},
): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.TimesRoman);
  for (let i = 1; i <= (options.pages ?? 3); i++) {
    const page = document.addPage([595, 842]);
    page.drawText(`Chapter ${i}`, { x: 72, y: 760, size: 24, font });
    if (options.rotate) page.setRotation(degrees(options.rotate));
  }
  return Buffer.from(await document.save({ useObjectStreams: options.objectStreams ?? true }));
}

/**
 * A classic file written by hand with what pdf-lib never makes: resources and MediaBox inherited from
 * the page tree, a page whose Contents is an array, a page with no Contents, a CropBox, nested Pages.
 * `trailerExtra` adds entries to the trailer (an /Encrypt dictionary, say).
 */
export function handWrittenPdf(trailerExtra = ""): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> >>",
    "<< /Type /Page /Parent 2 0 R /Contents [6 0 R 7 0 R] /CropBox [20 20 592 772] >>",
    "<< /Type /Pages /Parent 2 0 R /Kids [8 0 R] /Count 1 /Rotate 270 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
    stream("BT /F1 12 Tf 72 700 Td (first half) Tj ET"),
    stream("BT /F1 12 Tf 72 680 Td (second half) Tj ET 2 0 0 2 0 0 cm"),
    "<< /Type /Page /Parent 4 0 R >>",
  ];
  return classicPdf(objects, trailerExtra);
}

/** A classic file of `objects` (numbered from 1, object 1 the catalog) with a cross-reference table. */
function classicPdf(objects: string[], trailerExtra = ""): Buffer {
  let body = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f\r\n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n\r\n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

const stream = (content: string) => `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;

/** Each page's last content stream, decoded as text (the stamp is the last one a stamped page has). */
export async function lastContentOfEachPage(bytes: Buffer): Promise<string[]> {
  const document = await PDFDocument.load(bytes);
  return document.getPages().map((page) => {
    const contents = page.node.get(PDFName.of("Contents"));
    const resolved = contents ? document.context.lookup(contents) : undefined;
    const last =
      resolved instanceof PDFArray ? document.context.lookup(resolved.get(resolved.size() - 1)) : resolved;
    return last instanceof PDFRawStream ? Buffer.from(last.contents).toString("latin1") : "";
  });
}

/**
 * A PDF 1.5 file whose object stream's /Length is an object kept inside that same stream: a reader
 * that follows it without noticing would read the stream forever.
 */
export function selfReferentialObjectStreamPdf(): Buffer {
  const packed = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    "999",
  ];
  let header = "";
  let objects = "";
  packed.forEach((object, i) => {
    header += `${i + 1} ${objects.length} `;
    objects += `${object}\n`;
  });
  const content = header + objects;
  let body = "%PDF-1.5\n%\xe2\xe3\xcf\xd3\n";
  const streamOffset = Buffer.byteLength(body, "latin1");
  body += `5 0 obj\n<< /Type /ObjStm /N ${packed.length} /First ${header.length} /Length 4 0 R >>\nstream\n${content}\nendstream\nendobj\n`;
  const xrefOffset = Buffer.byteLength(body, "latin1");
  // /W [1 4 2]: type, offset or object stream number, generation or index.
  const row = (type: number, field: number, index: number) => {
    const bytes = Buffer.alloc(7);
    bytes.writeUInt8(type, 0);
    bytes.writeUInt32BE(field, 1);
    bytes.writeUInt16BE(index, 5);
    return bytes;
  };
  const rows = Buffer.concat([
    row(0, 0, 65535),
    ...packed.map((_, i) => row(2, 5, i)),
    row(1, streamOffset, 0),
    row(1, xrefOffset, 0),
  ]);
  const xref = `6 0 obj\n<< /Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R /Length ${rows.length} >>\nstream\n`;
  return Buffer.concat([
    Buffer.from(body + xref, "latin1"),
    rows,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefOffset}\n%%EOF\n`, "latin1"),
  ]);
}

/**
 * A small classic file whose pages all share one /Contents array of `refs` references (to one tiny
 * stream, again and again): 300 pages and 50,000 references is about 0.3 MB. A stamper that copies
 * the array into every page makes a copy hundreds of times the original's size. `sizes`: each page
 * gets a MediaBox of its own width, so no two pages have their stamp in the same place.
 */
export function sharedContentsPdf({ pages = 300, refs = 50_000, sizes = false } = {}): Buffer {
  const pageNums = Array.from({ length: pages }, (_, i) => 6 + i);
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pageNums.map((num) => `${num} 0 R`).join(" ")}] /Count ${pages} /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
    stream("BT /F1 12 Tf 72 700 Td (shared) Tj ET"),
    `[${" 4 0 R".repeat(refs)} ]`,
    ...pageNums.map(
      (_, i) =>
        `<< /Type /Page /Parent 2 0 R /Contents 5 0 R ${sizes ? `/MediaBox [0 0 ${300 + i} 792] ` : ""}>>`,
    ),
  ];
  return classicPdf(objects);
}
