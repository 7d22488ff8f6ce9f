/**
 * Helpers for the readers' tests: the sample exports in tests/fixtures/import-formats, reading a reader's
 * items into a list, and generated CSVs that show a reader streams.
 */
import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { ImportItem, PlatformFileReader } from "../import-records";
import { ImportFileError } from "./errors";

const FIXTURES = path.resolve(import.meta.dirname, "../../../../../tests/fixtures/import-formats");

export function fixturePath(platform: string, name: string): string {
  return path.join(FIXTURES, platform, name);
}

/** The first 64 KB of a sample, as detection sees it. */
export function fixtureHead(platform: string, name: string): string {
  return readFileSync(fixturePath(platform, name), "utf8").slice(0, 64 * 1024);
}

/** Every item a reader yields for a sample file, streamed from disk. */
export async function readFixture(reader: PlatformFileReader, platform: string, name: string) {
  return readAll(reader.read(name, createReadStream(fixturePath(platform, name))));
}

export async function readAll(items: AsyncIterable<ImportItem>): Promise<ImportItem[]> {
  const all: ImportItem[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** The ImportFileError a promise fails with (anything else fails the test). */
export async function importError(promise: Promise<unknown>): Promise<ImportFileError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (error instanceof ImportFileError) return error;
  throw new Error(`expected an ImportFileError, got ${String(error)}`);
}

/** A body made of text (or bytes), in one chunk. */
export function bodyOf(content: string | Uint8Array): NodeJS.ReadableStream {
  return Readable.from([typeof content === "string" ? Buffer.from(content, "utf8") : Buffer.from(content)]);
}

export function ofKind<K extends ImportItem["kind"]>(items: ImportItem[], kind: K) {
  return items.filter((item): item is Extract<ImportItem, { kind: K }> => item.kind === kind);
}

/** How far a generated CSV has been produced: rows handed to the stream so far. */
export interface Progress {
  produced: number;
}

/**
 * A CSV of `count` generated rows, produced lazily 100 rows a chunk as the reader pulls: a reader that
 * streams sees its first record long before the last row exists.
 */
export function generatedCsv(
  header: string,
  row: (index: number) => string,
  count: number,
  progress: Progress,
) {
  function* chunks() {
    yield `${header}\n`;
    for (let start = 0; start < count; start += 100) {
      const end = Math.min(count, start + 100);
      const lines: string[] = [];
      for (let index = start; index < end; index++) lines.push(row(index));
      progress.produced = end;
      yield `${lines.join("\n")}\n`;
    }
  }
  return Readable.from(chunks());
}

/**
 * Reads a generated CSV through a reader, counting items by kind and noting how many rows had been
 * produced when the first record came out.
 */
export async function countStreamed(items: AsyncIterable<ImportItem>, progress: Progress) {
  const counts = new Map<string, number>();
  let producedAtFirstRecord: number | undefined;
  for await (const item of items) {
    if (item.kind !== "notice" && producedAtFirstRecord === undefined)
      producedAtFirstRecord = progress.produced;
    counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
  }
  return { counts, producedAtFirstRecord };
}

/** One CSV line, quoting cells as RFC 4180 writers do. */
export function csvLine(cells: readonly string[]): string {
  return cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(",");
}

/**
 * A sample export's header and one of its rows as cells by name, to build variations of a real row
 * (`line` is the sample's line, the header being 1).
 */
export function sampleRow(platform: string, name: string, line: number) {
  const lines = readFileSync(fixturePath(platform, name), "utf8").split(/\r?\n/);
  const header = lines[0]!.split(",");
  const cells = parseSimpleLine(lines[line - 1]!);
  return {
    header,
    row: Object.fromEntries(header.map((column, index) => [column, cells[index] ?? ""])),
    /** A CSV of the sample's header and the given rows (cells by name; missing ones empty). */
    csv(rows: Record<string, string>[]): string {
      return `${[header, ...rows.map((row) => header.map((column) => row[column] ?? ""))].map(csvLine).join("\n")}\n`;
    },
  };
}

/** Splits one CSV line whose quoted cells hold no line break (enough for the samples' rows). */
function parseSimpleLine(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quoted && char === '"' && line[index + 1] === '"') {
      cell += '"';
      index++;
    } else if (char === '"') quoted = !quoted;
    else if (char === "," && !quoted) {
      cells.push(cell);
      cell = "";
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}
