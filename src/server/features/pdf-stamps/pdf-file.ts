import type { FileHandle } from "node:fs/promises";
import { inflateSync, constants as zlibConstants } from "node:zlib";
import {
  PdfDict,
  PdfKeyword,
  PdfLexer,
  PdfName,
  PdfNumber,
  type PdfObject,
  PdfRef,
  PdfSyntaxError,
  TruncatedInput,
} from "./pdf-syntax";

/**
 * A PDF read in place, a piece at a time: the cross-reference data is kept in typed arrays (13 bytes
 * per object) and objects are parsed only when asked for, so memory follows the number of objects
 * looked at, never the file's size. Streams are only decompressed for object streams and
 * cross-reference streams, each capped.
 */

/** Why a PDF can't be stamped; `reason` is what the seller is told. */
export class PdfStampRefusal extends Error {
  constructor(
    readonly reason:
      | "encrypted"
      | "damaged"
      | "too-big"
      | "too-many-pages"
      | "too-large-copy"
      | "too-slow"
      | "not-pdf",
    detail: string,
  ) {
    super(detail);
  }
}

const damaged = (detail: string) => new PdfStampRefusal("damaged", detail);

/** More objects than this in one file is not a document a buyer reads (and bounds the xref arrays). */
const MAX_OBJECTS = 2_000_000;
/** One object (a page dictionary, a trailer) larger than this is refused rather than read whole. */
const MAX_OBJECT_BYTES = 4 * 1024 * 1024;
/** An object stream or cross-reference stream inflating past this is refused. */
const MAX_INFLATED_BYTES = 32 * 1024 * 1024;
const FIRST_READ_BYTES = 4096;
/** Decompressed object streams kept (pages of one document usually sit in a few of them). */
const OBJECT_STREAM_CACHE = 4;
/**
 * All the decompressing one document may cost: a file whose pages are spread over more object streams
 * than the cache holds would otherwise inflate them again and again, holding up the event loop.
 */
const MAX_TOTAL_INFLATED_BYTES = 512 * 1024 * 1024;

/** The newest cross-reference section: where it is, what kind, and its trailer. */
export interface XrefInfo {
  /** Offset of the newest section (the update's /Prev). */
  startxref: number;
  kind: "table" | "stream";
  trailer: PdfDict;
  /** One past the highest object number in use. */
  size: number;
}

interface ObjectStream {
  data: Buffer;
  /** Byte offset of each object inside `data`. */
  offsets: Map<number, number>;
}

export class PdfFile {
  /** Per object number: 0 free/unknown, 1 at a byte offset, 2 inside an object stream. */
  private kinds: Uint8Array = new Uint8Array(0);
  /** Kind 1: its byte offset; kind 2: the object stream's number. */
  private places: Float64Array = new Float64Array(0);
  /** Kind 1: its generation; kind 2: its index in the object stream. */
  private extras: Uint32Array = new Uint32Array(0);
  private objectStreams = new Map<number, ObjectStream>();
  /** Object streams being read: one whose /Length lives inside itself would be read forever. */
  private objectStreamsLoading = new Set<number>();
  private inflatedBytes = 0;
  xref!: XrefInfo;

  private constructor(
    private readonly file: FileHandle,
    readonly size: number,
  ) {}

  static async open(file: FileHandle, size: number): Promise<PdfFile> {
    const pdf = new PdfFile(file, size);
    const head = await pdf.read(0, Math.min(1024, size));
    if (!head.subarray(0, 5).equals(Buffer.from("%PDF-"))) {
      throw new PdfStampRefusal("not-pdf", "the file does not start with %PDF-");
    }
    await pdf.readCrossReferences();
    return pdf;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    const bytes = Buffer.allocUnsafe(Math.max(0, Math.min(length, this.size - offset)));
    let done = 0;
    while (done < bytes.length) {
      const { bytesRead } = await this.file.read(bytes, done, bytes.length - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return bytes.subarray(0, done);
  }

  /** Parses with `parse` from `offset`, reading more of the file while the bytes run out. */
  private async parseAt<T>(offset: number, parse: (lexer: PdfLexer) => T): Promise<T> {
    let length = FIRST_READ_BYTES;
    for (;;) {
      if (offset < 0 || offset >= this.size) throw damaged(`offset ${offset} outside the file`);
      const bytes = await this.read(offset, length);
      const atEnd = offset + bytes.length >= this.size;
      try {
        return parse(new PdfLexer(bytes, atEnd));
      } catch (error) {
        if (!(error instanceof TruncatedInput)) throw asRefusal(error);
        if (length >= MAX_OBJECT_BYTES) throw damaged(`object at ${offset} is larger than the limit`);
        length *= 4;
      }
    }
  }

  /** Follows startxref and every /Prev, newest section first (its entries win). */
  private async readCrossReferences(): Promise<void> {
    const tailLength = Math.min(2048, this.size);
    const tail = (await this.read(this.size - tailLength, tailLength)).toString("latin1");
    const match = /startxref\s+(\d+)/g;
    let last: RegExpExecArray | null = null;
    for (let found = match.exec(tail); found; found = match.exec(tail)) last = found;
    if (!last) throw damaged("no startxref at the end");
    const startxref = Number(last[1]);
    const seen = new Set<number>();
    let offset: number | undefined = startxref;
    let newest: XrefInfo | undefined;
    while (offset !== undefined) {
      if (seen.has(offset)) throw damaged("cross-reference sections loop");
      seen.add(offset);
      const section = await this.readSection(offset);
      if (!newest) {
        const size = numberOf(section.trailer.get("Size"));
        if (size === undefined || size < 1 || size > MAX_OBJECTS) throw damaged("bad trailer /Size");
        newest = { startxref, kind: section.kind, trailer: section.trailer, size };
      }
      // A hybrid file's table points to a stream with the objects kept in object streams.
      const hybrid = numberOf(section.trailer.get("XRefStm"));
      if (hybrid !== undefined && !seen.has(hybrid)) {
        seen.add(hybrid);
        await this.readSection(hybrid);
      }
      offset = numberOf(section.trailer.get("Prev"));
    }
    if (!newest) throw damaged("no cross-reference section");
    if (newest.trailer.get("Encrypt") !== undefined) {
      throw new PdfStampRefusal("encrypted", "the document is encrypted");
    }
    this.xref = newest;
  }

  private ensureCapacity(count: number): void {
    if (count > MAX_OBJECTS) throw damaged("too many objects");
    if (count <= this.kinds.length) return;
    const grow = Math.min(MAX_OBJECTS, Math.max(count, this.kinds.length * 2));
    const kinds = new Uint8Array(grow);
    kinds.set(this.kinds);
    const places = new Float64Array(grow);
    places.set(this.places);
    const extras = new Uint32Array(grow);
    extras.set(this.extras);
    // 255: seen, and free (a newer section may free an object an older one defined).
    this.kinds = kinds;
    this.places = places;
    this.extras = extras;
  }

  /** Records an entry unless a newer section already named this object. */
  private record(num: number, kind: 1 | 2 | 255, place: number, extra: number): void {
    this.ensureCapacity(num + 1);
    if (this.kinds[num] !== 0) return;
    this.kinds[num] = kind;
    this.places[num] = place;
    this.extras[num] = extra;
  }

  private async readSection(offset: number): Promise<{ kind: "table" | "stream"; trailer: PdfDict }> {
    // Some writers point at the whitespace before the section.
    const head = (await this.read(offset, 64)).toString("latin1");
    const at = offset + (head.length - head.trimStart().length);
    if (head.trimStart().startsWith("xref")) return { kind: "table", trailer: await this.readTable(at) };
    return { kind: "stream", trailer: await this.readXrefStream(at) };
  }

  /** A classic `xref` table and the trailer after it. */
  private async readTable(offset: number): Promise<PdfDict> {
    return this.parseAt(offset, (lexer) => {
      lexer.keyword("xref");
      const entries: Array<[number, 1 | 255, number, number]> = [];
      for (;;) {
        const save = lexer.pos;
        const word = lexer.next();
        if (word instanceof PdfKeyword && word.word === "trailer") break;
        lexer.pos = save;
        const first = lexer.integer();
        const count = lexer.integer();
        if (first + count > MAX_OBJECTS) throw damaged("too many objects");
        for (let i = 0; i < count; i++) {
          const place = lexer.integer();
          const gen = lexer.integer();
          const type = lexer.next();
          if (!(type instanceof PdfKeyword) || (type.word !== "n" && type.word !== "f")) {
            throw damaged("bad cross-reference entry");
          }
          entries.push([first + i, type.word === "n" ? 1 : 255, place, gen]);
        }
      }
      const trailer = lexer.object();
      if (!(trailer instanceof PdfDict)) throw damaged("trailer is not a dictionary");
      // Recorded only once the whole section parsed (a retry with more bytes parses it again).
      for (const [num, kind, place, gen] of entries) {
        // Object 0 and entries with offset 0 are free whatever they say.
        this.record(num, kind === 1 && place > 0 && num > 0 ? 1 : 255, place, gen);
      }
      return trailer;
    });
  }

  /** A cross-reference stream (PDF 1.5): its dictionary is the trailer. */
  private async readXrefStream(offset: number): Promise<PdfDict> {
    const { value, dataStart } = await this.readIndirectAt(offset);
    if (!(value instanceof PdfDict) || dataStart === undefined || nameOf(value.get("Type")) !== "XRef") {
      throw damaged("startxref points to neither a table nor a cross-reference stream");
    }
    const data = await this.streamData(value, dataStart);
    const widths = arrayOf(value.get("W")).map((width) => numberOf(width) ?? -1);
    if (widths.length !== 3 || widths.some((width) => width < 0 || width > 8)) throw damaged("bad /W");
    const size = numberOf(value.get("Size")) ?? 0;
    const index = value.get("Index") ? arrayOf(value.get("Index")).map((n) => numberOf(n) ?? -1) : [0, size];
    const rowLength = widths[0]! + widths[1]! + widths[2]!;
    let at = 0;
    const field = (width: number, fallback: number) => {
      if (width === 0) return fallback;
      let value = 0;
      for (let i = 0; i < width; i++) value = value * 256 + data[at++]!;
      return value;
    };
    for (let pair = 0; pair + 1 < index.length; pair += 2) {
      const first = index[pair]!;
      const count = index[pair + 1]!;
      if (first < 0 || count < 0 || first + count > MAX_OBJECTS) throw damaged("bad /Index");
      for (let i = 0; i < count; i++) {
        if (at + rowLength > data.length) throw damaged("cross-reference stream too short");
        const type = field(widths[0]!, 1);
        const second = field(widths[1]!, 0);
        const third = field(widths[2]!, 0);
        const num = first + i;
        if (type === 1 && second > 0 && num > 0) this.record(num, 1, second, third);
        else if (type === 2) this.record(num, 2, second, third);
        else this.record(num, 255, 0, 0);
      }
    }
    return value;
  }

  /** `N G obj <object> [stream]` at a byte offset. */
  async readIndirectAt(offset: number): Promise<{ value: PdfObject; dataStart?: number }> {
    return this.parseAt(offset, (lexer) => {
      lexer.integer();
      lexer.integer();
      lexer.keyword("obj");
      const value = lexer.object();
      if (!(value instanceof PdfDict)) return { value };
      const save = lexer.pos;
      const word = lexer.next();
      if (!(word instanceof PdfKeyword) || word.word !== "stream") {
        lexer.pos = save;
        return { value };
      }
      // The data starts after the end of the `stream` line (CRLF or LF; a lone CR is tolerated).
      if (lexer.bytes[lexer.pos] === 0x0d) lexer.pos++;
      if (lexer.bytes[lexer.pos] === 0x0a) lexer.pos++;
      return { value, dataStart: offset + lexer.pos };
    });
  }

  /** An object by number (the newest definition); null for a free or missing one, as the spec says. */
  async resolve(value: PdfObject | undefined): Promise<PdfObject> {
    if (!(value instanceof PdfRef)) return value ?? null;
    const { num } = value;
    const kind = num < this.kinds.length ? this.kinds[num] : 0;
    if (kind === 1) return (await this.readIndirectAt(this.places[num]!)).value;
    if (kind === 2) {
      const stream = await this.objectStream(this.places[num]!);
      const at = stream.offsets.get(num);
      if (at === undefined) return null;
      const lexer = new PdfLexer(stream.data.subarray(at), true);
      try {
        return lexer.object();
      } catch (error) {
        throw asRefusal(error);
      }
    }
    return null;
  }

  /** An object by reference, and whether it is a stream (streams are never inside object streams). */
  async lookup(ref: PdfRef): Promise<{ value: PdfObject; stream: boolean }> {
    const kind = ref.num < this.kinds.length ? this.kinds[ref.num] : 0;
    if (kind !== 1) return { value: await this.resolve(ref), stream: false };
    const { value, dataStart } = await this.readIndirectAt(this.places[ref.num]!);
    return { value, stream: dataStart !== undefined };
  }

  private async objectStream(num: number): Promise<ObjectStream> {
    const cached = this.objectStreams.get(num);
    if (cached) {
      // Most recently used last.
      this.objectStreams.delete(num);
      this.objectStreams.set(num, cached);
      return cached;
    }
    if (this.kinds[num] !== 1) throw damaged(`object stream ${num} not found`);
    if (this.objectStreamsLoading.has(num)) throw damaged(`object stream ${num} refers to itself`);
    this.objectStreamsLoading.add(num);
    let value: PdfDict;
    let data: Buffer;
    try {
      const read = await this.readIndirectAt(this.places[num]!);
      if (!(read.value instanceof PdfDict) || read.dataStart === undefined)
        throw damaged(`object ${num} is not a stream`);
      value = read.value;
      data = await this.streamData(value, read.dataStart);
    } finally {
      this.objectStreamsLoading.delete(num);
    }
    const count = numberOf(value.get("N")) ?? 0;
    const first = numberOf(value.get("First")) ?? 0;
    const lexer = new PdfLexer(data.subarray(0, first), true);
    const offsets = new Map<number, number>();
    try {
      for (let i = 0; i < count; i++) {
        const objectNum = lexer.integer();
        offsets.set(objectNum, first + lexer.integer());
      }
    } catch (error) {
      throw asRefusal(error);
    }
    const stream = { data, offsets };
    this.objectStreams.set(num, stream);
    if (this.objectStreams.size > OBJECT_STREAM_CACHE) {
      this.objectStreams.delete(this.objectStreams.keys().next().value!);
    }
    return stream;
  }

  /** A stream's decoded data: no filter or FlateDecode (what object and xref streams use), capped. */
  private async streamData(dict: PdfDict, dataStart: number): Promise<Buffer> {
    const length = numberOf(await this.resolve(dict.get("Length")));
    if (length === undefined || length < 0 || length > MAX_INFLATED_BYTES)
      throw damaged("bad stream /Length");
    const raw = await this.read(dataStart, length);
    const filters = filterNames(dict.get("Filter"));
    if (filters.length === 0) return raw;
    if (filters.length > 1 || filters[0] !== "FlateDecode")
      throw damaged(`unsupported filter ${filters.join()}`);
    let inflated: Buffer;
    try {
      inflated = inflateSync(raw, {
        maxOutputLength: MAX_INFLATED_BYTES,
        // Tolerates a stream cut short of its checksum, as readers do.
        finishFlush: zlibConstants.Z_SYNC_FLUSH,
      });
    } catch {
      throw damaged("compressed stream is damaged or too large");
    }
    this.inflatedBytes += inflated.length;
    if (this.inflatedBytes > MAX_TOTAL_INFLATED_BYTES) throw damaged("too much compressed data to read");
    const parms = dict.get("DecodeParms");
    const decode = Array.isArray(parms) ? parms[0] : parms;
    return decode instanceof PdfDict ? unpredict(inflated, decode) : inflated;
  }
}

/** Undoes a PNG predictor (/Predictor 10-15), which cross-reference streams use. */
function unpredict(data: Buffer, parms: PdfDict): Buffer {
  const predictor = numberOf(parms.get("Predictor")) ?? 1;
  if (predictor === 1) return data;
  if (predictor < 10) throw damaged(`unsupported predictor ${predictor}`);
  const columns = numberOf(parms.get("Columns")) ?? 1;
  if (!Number.isInteger(columns) || columns < 1 || columns > 64)
    throw damaged(`unsupported /Columns ${columns}`);
  const rowLength = columns + 1;
  const rows = Math.floor(data.length / rowLength);
  const out = Buffer.alloc(rows * columns);
  for (let row = 0; row < rows; row++) {
    const type = data[row * rowLength]!;
    for (let col = 0; col < columns; col++) {
      const raw = data[row * rowLength + 1 + col]!;
      const left = col > 0 ? out[row * columns + col - 1]! : 0;
      const up = row > 0 ? out[(row - 1) * columns + col]! : 0;
      const upLeft = row > 0 && col > 0 ? out[(row - 1) * columns + col - 1]! : 0;
      let value: number;
      if (type === 0) value = raw;
      else if (type === 1) value = raw + left;
      else if (type === 2) value = raw + up;
      else if (type === 3) value = raw + Math.floor((left + up) / 2);
      else if (type === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      } else throw damaged(`bad PNG predictor row type ${type}`);
      out[row * columns + col] = value & 0xff;
    }
  }
  return out;
}

function asRefusal(error: unknown): Error {
  if (error instanceof PdfStampRefusal) return error;
  if (error instanceof PdfSyntaxError) return damaged(error.message);
  return error instanceof Error ? error : new Error(String(error));
}

export const numberOf = (value: PdfObject | undefined): number | undefined =>
  value instanceof PdfNumber && Number.isFinite(value.value) ? value.value : undefined;
export const nameOf = (value: PdfObject | undefined): string | undefined =>
  value instanceof PdfName ? value.name : undefined;
export const arrayOf = (value: PdfObject | undefined): PdfObject[] => (Array.isArray(value) ? value : []);
const filterNames = (value: PdfObject | undefined): string[] =>
  value instanceof PdfName ? [value.name] : arrayOf(value).flatMap((item) => nameOf(item) ?? []);
