import { pipeline, Readable } from "node:stream";
import type { CsvError } from "csv-parse";
import type { RowProblem } from "../import-records";
import { ImportFileError } from "./errors";
import { decodeText } from "./text-input";

/** A cell longer than this is not a name, an email or an amount: its row is reported, not read. */
export const MAX_CELL_CHARS = 10_000;
/** csv-parse's buffer bound: an unclosed quote stops here instead of swallowing the whole file into memory. */
const MAX_RECORD_CHARS = 1_000_000;

/** One data row: the line it starts on (the header is line 1) and its known columns' cells by header name. */
export interface CsvRow {
  line: number;
  cells: Record<string, string>;
}

/** What a reader knows of a CSV export: the columns it reads, and those without which the file is not it. */
export interface CsvFormat {
  /** "Gumroad sales CSV", for the error when `required` columns are missing. */
  label: string;
  known: readonly string[];
  /** Each entry a column that must be there, or a list of names of which one must be (old and new headers). */
  required: readonly (string | readonly string[])[];
}

export interface CsvTable {
  header: string[];
  /** Header columns the reader does not know, in file order: reported, never read. */
  unknownColumns: string[];
  /** Names that appear more than once; the first such column is the one read. */
  repeatedColumns: string[];
  /** The data rows in file order, or a problem for a row that cannot be read. Streams: one row at a time. */
  rows: AsyncGenerator<CsvRow | RowProblem>;
  /** Stops reading (the reader stopped early or failed): releases the upload stream. */
  close(): void;
}

interface ParsedRecord {
  record: string[];
  /** `bytes`: how far the parser has read, which is just past the record's line end when it is emitted. */
  info: { bytes: number };
}

/**
 * Opens a CSV export: reads its header, checks it is the expected format and streams its rows by header
 * name. RFC 4180 (quoted cells with commas, doubled quotes and line breaks), LF or CRLF, an optional BOM.
 */
export async function openCsv(
  file: string,
  body: NodeJS.ReadableStream,
  format: CsvFormat,
): Promise<CsvTable> {
  // Loaded on first use: an import is rare, the server starts without it.
  const { parse } = await import("csv-parse");
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    // A stray quote inside an unquoted cell (O'Neil "Bobby") is kept as text: no writer's CSV is that strict.
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  const lineBreaks = new LineBreaks();
  const source = Readable.from(countedBytes(decodeText(file, body), lineBreaks));
  // The callback is needed by pipeline; a failure reaches the reader through the parser's iterator.
  pipeline(source, parser, () => {});
  const records = new RecordSource(
    file,
    parser[Symbol.asyncIterator]() as AsyncIterator<ParsedRecord>,
    lineBreaks,
  );
  const close = () => {
    source.destroy();
    parser.destroy();
  };

  try {
    const first = await records.next();
    if (!first) throw new ImportFileError(file, `"${file}" is empty: it has no header row.`);
    const header = first.record.map((name) => name.trim());
    checkRequired(file, header, format);
    const positions = knownPositions(header, format.known);
    return {
      header,
      unknownColumns: unknownColumns(header, format.known),
      repeatedColumns: repeatedColumns(header),
      rows: dataRows(file, records, header.length, positions, close),
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

async function* dataRows(
  file: string,
  records: RecordSource,
  width: number,
  positions: Map<string, number>,
  close: () => void,
): AsyncGenerator<CsvRow | RowProblem> {
  try {
    for (let parsed = await records.next(); parsed; parsed = await records.next()) {
      const line = records.startLine(parsed);
      const origin = { file, line };
      const reason = rowShapeProblem(parsed.record, width) ?? longCellProblem(parsed.record, positions);
      if (reason) yield { kind: "problem", origin, reason };
      else yield { line, cells: cellsByName(parsed.record, positions) };
    }
  } finally {
    close();
  }
}

/** The text as UTF-8 bytes, each chunk shown to the line counter on its way to the parser. */
async function* countedBytes(text: AsyncIterable<string>, lineBreaks: LineBreaks): AsyncGenerator<Buffer> {
  for await (const part of text) {
    const bytes = Buffer.from(part, "utf8");
    lineBreaks.push(bytes);
    yield bytes;
  }
}

/**
 * Line numbers, counted here: csv-parse's own count drifts on a CRLF inside a quoted cell of a CRLF file.
 * Holds the bytes between what the parser has read and what it has emitted (a few chunks, not the file).
 */
class LineBreaks {
  private readonly chunks: Buffer[] = [];
  private chunkStart = 0;
  private countedTo = 0;
  private count = 0;

  push(bytes: Buffer): void {
    this.chunks.push(bytes);
  }

  /** The line feeds before `offset`; offsets are asked in increasing order. */
  before(offset: number): number {
    while (this.countedTo < offset && this.chunks.length > 0) {
      const chunk = this.chunks[0]!;
      const chunkEnd = this.chunkStart + chunk.length;
      const to = Math.min(offset, chunkEnd);
      this.count += lineFeeds(chunk, this.countedTo - this.chunkStart, to - this.chunkStart);
      this.countedTo = to;
      if (to === chunkEnd) {
        this.chunks.shift();
        this.chunkStart = chunkEnd;
      }
    }
    return this.count;
  }
}

function lineFeeds(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a, from); at !== -1 && at < to; at = bytes.indexOf(0x0a, at + 1)) count += 1;
  return count;
}

/** The parser's records with the lines they start on, remembering where the last good one ended. */
class RecordSource {
  private lastLine = 0;

  constructor(
    private readonly file: string,
    private readonly records: AsyncIterator<ParsedRecord>,
    private readonly lineBreaks: LineBreaks,
  ) {}

  async next(): Promise<ParsedRecord | null> {
    try {
      const next = await this.records.next();
      if (next.done) return null;
      this.lastLine = this.endLine(next.value);
      return next.value;
    } catch (error) {
      // An unclosed quote is found only where the parser gives up, so it is placed after the last good row.
      throw asImportError(this.file, error, this.lastLine);
    }
  }

  /** The line a record starts on: where it ends, less the line breaks inside its quoted cells. */
  startLine(parsed: ParsedRecord): number {
    const inside = parsed.record.reduce((sum, cell) => sum + (cell.match(/\n/g)?.length ?? 0), 0);
    return this.endLine(parsed) - inside;
  }

  /** The record's last byte is its line end (or the file's last character): the lines before it, plus one. */
  private endLine(parsed: ParsedRecord): number {
    return 1 + this.lineBreaks.before(Math.max(0, parsed.info.bytes - 1));
  }
}

function rowShapeProblem(record: string[], width: number): string | undefined {
  if (record.length === width) return undefined;
  return `This row has ${record.length} cells but the header has ${width} columns: it may be cut short or have a stray comma, so it is not read.`;
}

function longCellProblem(record: string[], positions: Map<string, number>): string | undefined {
  for (const [name, index] of positions) {
    if ((record[index] ?? "").length > MAX_CELL_CHARS) {
      return `${name} is longer than ${MAX_CELL_CHARS.toLocaleString("en-US")} characters, so the row is not read.`;
    }
  }
  return undefined;
}

function cellsByName(record: string[], positions: Map<string, number>): Record<string, string> {
  const cells: Record<string, string> = {};
  for (const [name, index] of positions) cells[name] = record[index] ?? "";
  return cells;
}

/** The first column of each known name: Gumroad appends custom fields after its own columns, which may share a name. */
function knownPositions(header: string[], known: readonly string[]): Map<string, number> {
  const wanted = new Set(known);
  const positions = new Map<string, number>();
  header.forEach((name, index) => {
    if (wanted.has(name) && !positions.has(name)) positions.set(name, index);
  });
  return positions;
}

function unknownColumns(header: string[], known: readonly string[]): string[] {
  const wanted = new Set(known);
  const unknown = header.map((name, index) => name || `(column ${index + 1} has no name)`);
  return [...new Set(unknown.filter((name) => !wanted.has(name)))];
}

function repeatedColumns(header: string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of header) {
    if (name && seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  return [...repeated];
}

function checkRequired(file: string, header: string[], format: CsvFormat): void {
  const present = new Set(header);
  const missing = format.required
    .map((entry) => (typeof entry === "string" ? [entry] : entry))
    .filter((names) => !names.some((name) => present.has(name)))
    .map(([name, ...others]) => `"${name}"${others.map((other) => ` (or "${other}")`).join("")}`);
  if (missing.length === 0) return;
  const columns = missing.length > 1 ? "columns" : "column";
  throw new ImportFileError(
    file,
    `"${file}" is not a ${format.label}: its header lacks the ${columns} ${missing.join(", ")}.`,
  );
}

/** csv-parse's errors carry a CSV_… code (checked without loading csv-parse at start). */
const isCsvError = (error: unknown): error is CsvError =>
  error instanceof Error && String((error as { code?: unknown }).code).startsWith("CSV_");

/** csv-parse's errors, in words a creator can act on. */
function asImportError(file: string, error: unknown, lastGoodLine: number): unknown {
  if (!isCsvError(error)) return error;
  const fix = "Fix it in a text editor, or export the file again.";
  const after = `after line ${lastGoodLine}`;
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return new ImportFileError(
        file,
        `"${file}" is not valid CSV: a quoted cell that starts ${after} is never closed, so the rest of the file can't be read. ${fix}`,
      );
    case "CSV_MAX_RECORD_SIZE":
      return new ImportFileError(
        file,
        `"${file}" is not valid CSV: the row ${after} is longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters, most likely because a quote is never closed. ${fix}`,
      );
    default:
      return new ImportFileError(file, `"${file}" is not valid CSV ${after}: ${error.message}. ${fix}`);
  }
}
