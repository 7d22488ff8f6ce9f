import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRawStream,
  type PDFRef,
} from "pdf-lib";

/**
 * The text a PDF shows, read back with pdf-lib: each page's content streams, with every font's
 * ToUnicode map turning the glyph codes of Tj/TJ back into characters (embedded subset fonts write
 * glyph ids, not text). Lines as the content draws them; enough to check what a document says.
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await PDFDocument.load(bytes);
  const lookup = (object: PDFObject | undefined) =>
    object ? pdf.context.lookup(object as PDFRef) : undefined;
  const streamText = (object: PDFObject | undefined) => {
    const stream = lookup(object);
    if (!(stream instanceof PDFRawStream)) return "";
    return Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
  };
  const lines: string[] = [];
  for (const page of pdf.getPages()) {
    const fonts = new Map<string, Map<string, string>>();
    const fontDict = lookup(page.node.Resources()?.get(PDFName.of("Font")));
    if (fontDict instanceof PDFDict) {
      for (const [name, ref] of fontDict.entries()) {
        const font = lookup(ref);
        if (font instanceof PDFDict)
          fonts.set(name.asString(), toUnicodeMap(streamText(font.get(PDFName.of("ToUnicode")))));
      }
    }
    const contents = page.node.get(PDFName.of("Contents"));
    const parts =
      lookup(contents) instanceof PDFArray ? (lookup(contents) as PDFArray).asArray() : [contents];
    const content = parts.map((part) => streamText(part)).join("\n");
    let map = new Map<string, string>();
    let line = "";
    for (const match of content.matchAll(
      /(\/[^\s/]+)\s+[\d.]+\s+Tf|\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj|\bET\b/g,
    )) {
      if (match[1]) map = fonts.get(match[1]) ?? new Map();
      else if (match[0] === "ET") {
        if (line) lines.push(line);
        line = "";
      } else {
        const hexes = match[2] ? [...match[2].matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]!) : [match[3]!];
        for (const hex of hexes) {
          for (let i = 0; i < hex.length; i += 4) line += map.get(hex.slice(i, i + 4).toLowerCase()) ?? "";
        }
      }
    }
  }
  return lines.join("\n");
}

/** A ToUnicode CMap's glyph codes (4 hex digits) and the text each stands for. */
function toUnicodeMap(cmap: string): Map<string, string> {
  const map = new Map<string, string>();
  // Hex strings may hold whitespace (PDFKit writes a ligature's text as <0066 0066>).
  const unicode = (hex: string) =>
    String.fromCodePoint(
      ...(hex.replace(/\s+/g, "").match(/.{4}/g) ?? []).map((h) => Number.parseInt(h, 16)),
    );
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, text] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]+)>/g)) {
      map.set(code!.toLowerCase().padStart(4, "0"), unicode(text!));
    }
  }
  for (const block of block_ranges(cmap)) {
    const [start, end, target] = block;
    const from = Number.parseInt(start, 16);
    const to = Number.parseInt(end, 16);
    if (target.startsWith("[")) {
      const texts = [...target.matchAll(/<([0-9a-fA-F\s]+)>/g)].map((m) => unicode(m[1]!));
      for (let code = from; code <= to; code++)
        map.set(code.toString(16).padStart(4, "0"), texts[code - from] ?? "");
    } else {
      const base = Number.parseInt(target.slice(1, -1), 16);
      for (let code = from; code <= to; code++)
        map.set(code.toString(16).padStart(4, "0"), String.fromCodePoint(base + code - from));
    }
  }
  return map;
}

function block_ranges(cmap: string): [string, string, string][] {
  const ranges: [string, string, string][] = [];
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1]!.matchAll(
      /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F\s]+>)/g,
    )) {
      ranges.push([m[1]!, m[2]!, m[3]!]);
    }
  }
  return ranges;
}
