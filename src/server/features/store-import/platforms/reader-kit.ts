/**
 * What every platform reader shares: the file's notices, turning a rejected row into a RowProblem, the
 * CSV reading loop, and typed access to the fields of a parsed JSON document.
 */
import type { FileNotice, ImportItem, RecordOrigin, RowProblem } from "../import-records";
import { quoted, RowRejected } from "./cells";
import { type CsvFormat, type CsvRow, openCsv } from "./csv-rows";
import { ImportFileError } from "./errors";
import { readJsonDocument } from "./text-input";

export function notice(file: string, unknownColumns: string[], notes: string[]): FileNotice {
  return { kind: "notice", file, unknownColumns, notes };
}

/** How many line numbers a note lists before it only counts. */
const LINES_LISTED = 5;

/**
 * What the creator should know of some rows, mostly rows skipped on purpose ("Skipped Gumroad's Totals
 * row"), counted by reason: one note per reason with its first few lines (CSV) or positions (a JSON list's
 * items), so a million skipped rows still make one short note in bounded memory.
 */
export class RowNotes {
  private readonly byReason = new Map<string, { count: number; lines: number[] }>();

  constructor(private readonly unit: "line" | "item" = "line") {}

  add(reason: string, line: number): void {
    const entry = this.byReason.get(reason) ?? { count: 0, lines: [] };
    entry.count += 1;
    if (entry.lines.length < LINES_LISTED) entry.lines.push(line);
    this.byReason.set(reason, entry);
  }

  notes(): string[] {
    return [...this.byReason].map(([reason, { count, lines }]) => `${reason} (${this.where(count, lines)})`);
  }

  private where(count: number, lines: number[]): string {
    const listed = lines.join(", ");
    if (count === 1) return `${this.unit} ${listed}`;
    const things = this.unit === "line" ? "rows" : "items";
    return count <= lines.length
      ? `${count} ${things}: ${this.unit}s ${listed}`
      : `${count} ${things}, the first at ${this.unit}s ${listed}`;
  }
}

/** The items of one row, or its RowProblem when a value could not be read. Other errors are bugs: they throw. */
export function rowItems(origin: RecordOrigin, read: () => ImportItem[]): ImportItem[] {
  try {
    return read();
  } catch (error) {
    if (error instanceof RowRejected) return [problem(origin, error.message)];
    throw error;
  }
}

export function problem(origin: RecordOrigin, reason: string): RowProblem {
  return { kind: "problem", origin, reason };
}

/** Each distinct id once: products met in sales rows are emitted the first time (bounded by the product count). */
export class FirstSeen {
  private readonly seen = new Set<string>();

  /** True the first time `id` is offered. */
  first(id: string): boolean {
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    return true;
  }
}

export type CsvRowReader = (row: CsvRow, origin: RecordOrigin, notes: RowNotes) => ImportItem[];

/**
 * The loop of every CSV reader: one FileNotice (unknown and repeated columns) before any row, the rows'
 * records and problems in file order, then, only if rows were skipped on purpose, a closing FileNotice
 * with those notes (a stream can't know them before its end).
 */
export async function* readCsvExport(
  file: string,
  body: NodeJS.ReadableStream,
  format: CsvFormat,
  readRow: CsvRowReader,
): AsyncGenerator<ImportItem> {
  const table = await openCsv(file, body, format);
  try {
    yield notice(file, table.unknownColumns, table.repeatedColumns.map(repeatedNote));
    const notes = new RowNotes();
    for await (const row of table.rows) {
      if ("kind" in row) yield row;
      else {
        const origin = { file, line: row.line };
        yield* rowItems(origin, () => readRow(row, origin, notes));
      }
    }
    const closing = notes.notes();
    if (closing.length > 0) yield notice(file, [], closing);
  } finally {
    table.close();
  }
}

function repeatedNote(name: string): string {
  return `The column "${name}" appears more than once; the first one is read (a custom field may share its name).`;
}

/*
 * JSON documents: typed access to the fields of parsed API answers. A missing or mistyped field throws
 * RowRejected naming the field, so one odd object is a RowProblem, not a failed import.
 */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function objectField(parent: JsonObject, key: string, label = key): JsonObject {
  const value = parent[key];
  if (!isObject(value)) throw new RowRejected(`${label} is missing`);
  return value;
}

/** A string field, or a number given as an id (JSON:API writes ids as strings, attributes as numbers). */
export function textField(parent: JsonObject, key: string, label = key): string {
  const value = parent[key];
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string" || value.trim() === "") throw new RowRejected(`${label} is empty`);
  return value.trim();
}

export function optionalTextField(parent: JsonObject, key: string): string | null {
  const value = parent[key];
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** A true/false field; some APIs send 0/1 for it (Lemon Squeezy's `disabled`). Missing is false. */
export function booleanField(parent: JsonObject, key: string, label = key): boolean {
  const value = parent[key];
  if (value === undefined || value === null || value === false || value === 0) return false;
  if (value === true || value === 1) return true;
  throw new RowRejected(`${label} is neither true nor false: ${quoted(String(value))}`);
}

/** A count (uses, activations): a non-negative integer; missing or null is 0. */
export function countField(parent: JsonObject, key: string, label = key): number {
  const value = parent[key];
  if (value === undefined || value === null) return 0;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  throw new RowRejected(`${label} is not a count: ${quoted(String(value))}`);
}

/** The array at `key` of a parsed document, or an ImportFileError-worthy answer from the caller. */
export function arrayField(parent: unknown, key: string): unknown[] | undefined {
  if (!isObject(parent)) return undefined;
  const value = parent[key];
  return Array.isArray(value) ? value : undefined;
}

/** Records and problems of one JSON element, the element's 1-based position as its line. */
export function elementItems(
  file: string,
  index: number,
  read: (origin: RecordOrigin) => ImportItem[],
): ImportItem[] {
  const origin = { file, line: index + 1 };
  return rowItems(origin, () => read(origin));
}

/** What a JSON reader makes of a whole document: its items in document order, and notes known up front. */
export interface JsonReading {
  items: ImportItem[];
  notes?: string[];
  /** Fields the reader does not know (reported, never guessed at), for readers that check them. */
  unknownFields?: string[];
}

/**
 * The loop of every JSON reader: the document is read whole (API pages are capped in size), so every note
 * is known before the first record and the FileNotice comes first, alone.
 */
export async function* readJsonExport(
  file: string,
  body: NodeJS.ReadableStream,
  read: (document: unknown, notes: RowNotes) => JsonReading,
): AsyncGenerator<ImportItem> {
  const document = await readJsonDocument(file, body);
  const rowNotes = new RowNotes("item");
  const { items, notes = [], unknownFields = [] } = read(document, rowNotes);
  yield notice(file, unknownFields, [...notes, ...rowNotes.notes()]);
  yield* items;
}

/** The refusal of a JSON document that is not the list this reader reads. */
export function notThisDocument(file: string, label: string, expected: string): ImportFileError {
  return new ImportFileError(file, `"${file}" is not a ${label}: ${expected}.`);
}

/*
 * Detection sees the first 64 KB of a file as text: the header line of a CSV, the start of a JSON document.
 */

/** The column names of a CSV's first line (names with commas or quotes are not needed to recognise an export). */
export function headerNames(head: string): string[] {
  const first = head.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  return first.split(",").map((name) => name.trim().replace(/^"(.*)"$/, "$1"));
}

/** Whether the CSV head's first line has every one of `names`. */
export function headerHas(head: string, names: readonly string[]): boolean {
  const present = new Set(headerNames(head));
  return names.every((name) => present.has(name));
}

/** Whether the head is the start of a JSON object (or array) whose text matches every pattern. */
export function jsonHeadMatches(head: string, opening: "{" | "[", patterns: readonly RegExp[]): boolean {
  const text = head.replace(/^\uFEFF/, "").trimStart();
  return text.startsWith(opening) && patterns.every((pattern) => pattern.test(text));
}
