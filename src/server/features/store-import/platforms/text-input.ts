import { ImportFileError } from "./errors";

/** API pages are read whole; anything larger is not one page of one list. */
export const MAX_JSON_BYTES = 100 * 1024 * 1024;

const UTF16_BOMS = [
  [0xff, 0xfe],
  [0xfe, 0xff],
];

function startsWithUtf16Bom(bytes: Uint8Array): boolean {
  return UTF16_BOMS.some(([a, b]) => bytes[0] === a && bytes[1] === b);
}

/** The creator-facing words for a file that is not UTF-8 text; shared by detection and reading. */
export function notTextError(file: string, utf16 = false): ImportFileError {
  const why = utf16
    ? "it is saved as UTF-16. Export it again from the platform, or save it as UTF-8 CSV"
    : "it looks like an image, a spreadsheet or another binary file";
  return new ImportFileError(
    file,
    `"${file}" is not a text export: ${why}. Upload the CSV or JSON file exactly as the platform gave it.`,
  );
}

/** Whether the first bytes (as text) show a binary file: text exports never hold a NUL character. */
export function headLooksBinary(head: string): boolean {
  return head.includes("\u0000");
}

function asBytes(chunk: string | Buffer | Uint8Array): Uint8Array {
  return typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
}

/**
 * The body as UTF-8 text, chunk by chunk: refuses binary files (a NUL byte), UTF-16 and bytes that are not
 * UTF-8 (a file re-saved in a legacy code page would turn names into mojibake silently), and stops past
 * `maxBytes`. Never holds more than one chunk.
 */
export async function* decodeText(
  file: string,
  body: NodeJS.ReadableStream,
  maxBytes = Number.POSITIVE_INFINITY,
): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let total = 0;
  for await (const chunk of body) {
    const bytes = asBytes(chunk);
    if (total === 0 && startsWithUtf16Bom(bytes)) throw notTextError(file, true);
    total += bytes.length;
    if (total > maxBytes) throw tooLarge(file, maxBytes);
    if (bytes.includes(0)) throw notTextError(file);
    yield decodeChunk(file, decoder, bytes, false);
  }
  const rest = decodeChunk(file, decoder, new Uint8Array(), true);
  if (rest) yield rest;
}

function decodeChunk(file: string, decoder: TextDecoder, bytes: Uint8Array, last: boolean): string {
  try {
    return decoder.decode(bytes, { stream: !last });
  } catch {
    throw new ImportFileError(
      file,
      `"${file}" is not UTF-8 text (it may have been re-saved by a spreadsheet in another encoding). Upload the file exactly as the platform exported it, or save it as UTF-8 CSV.`,
    );
  }
}

function tooLarge(file: string, maxBytes: number): ImportFileError {
  const megabytes = Math.floor(maxBytes / (1024 * 1024));
  return new ImportFileError(
    file,
    `"${file}" is larger than ${megabytes} MB, more than one page of an API list. Download the list in smaller pages and upload each page.`,
  );
}

/** A JSON document read whole (API pages are small), with its size capped and its syntax checked. */
export async function readJsonDocument(
  file: string,
  body: NodeJS.ReadableStream,
  maxBytes = MAX_JSON_BYTES,
): Promise<unknown> {
  let text = "";
  for await (const part of decodeText(file, body, maxBytes)) text += part;
  if (text.trim() === "") throw new ImportFileError(file, `"${file}" is empty.`);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const detail = error instanceof Error ? ` (${error.message})` : "";
    throw new ImportFileError(
      file,
      `"${file}" is not valid JSON${detail}. Save the API's answer as it came, without editing it.`,
    );
  }
}
