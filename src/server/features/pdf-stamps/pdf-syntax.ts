/**
 * The PDF object syntax (ISO 32000-1, 7.3), just enough to read the objects a stamp needs (trailers,
 * cross-reference data, the page tree, resources) and to write objects back. Strings are kept as bytes
 * and written as hex, numbers and names keep their text: what is copied is copied exactly.
 */

export class PdfName {
  /** The name as decoded (`#20` is a space); written back escaped. */
  constructor(readonly name: string) {}
}

export class PdfNumber {
  /** The number as written in the file, so a copy never changes its precision. */
  constructor(readonly text: string) {}
  get value(): number {
    return Number(this.text);
  }
}

export class PdfString {
  constructor(readonly bytes: Buffer) {}
}

export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}

export class PdfDict {
  readonly entries: Map<string, PdfObject>;
  constructor(entries?: Iterable<[string, PdfObject]>) {
    this.entries = new Map(entries);
  }
  get(key: string): PdfObject | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: PdfObject): this {
    this.entries.set(key, value);
    return this;
  }
  copy(): PdfDict {
    return new PdfDict(this.entries);
  }
}

export type PdfObject = null | boolean | PdfNumber | PdfName | PdfString | PdfRef | PdfDict | PdfObject[];

/** A keyword the parser met where an object was expected (`obj`, `stream`, `endobj`, `R`, `xref`...). */
export class PdfKeyword {
  constructor(readonly word: string) {}
}

/** The buffer ended inside a token: the caller reads a longer piece of the file and parses again. */
export class TruncatedInput extends Error {
  constructor() {
    super("PDF object runs past the bytes read");
  }
}

/** The bytes are not PDF syntax. */
export class PdfSyntaxError extends Error {}

const isWhitespace = (byte: number) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
const isDelimiter = (byte: number) =>
  byte === 0x28 || // (
  byte === 0x29 || // )
  byte === 0x3c || // <
  byte === 0x3e || // >
  byte === 0x5b || // [
  byte === 0x5d || // ]
  byte === 0x7b || // {
  byte === 0x7d || // }
  byte === 0x2f || // /
  byte === 0x25; // %
const isRegular = (byte: number) => !isWhitespace(byte) && !isDelimiter(byte);
const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;
const hexValue = (byte: number) => {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
};

/** Nesting deeper than this is not a real document (and would overflow the stack). */
const MAX_DEPTH = 100;

/**
 * Reads objects from `bytes`, which starts at file offset `base`. `atEnd` says the bytes run to the
 * end of the file: then running out is a syntax error, not a reason to read more.
 */
export class PdfLexer {
  pos = 0;
  constructor(
    readonly bytes: Buffer,
    readonly atEnd = true,
  ) {}

  private need(count = 1): void {
    if (this.pos + count > this.bytes.length) {
      if (this.atEnd) throw new PdfSyntaxError("unexpected end of the file");
      throw new TruncatedInput();
    }
  }

  skipWhitespace(): void {
    for (;;) {
      this.need();
      const byte = this.bytes[this.pos]!;
      if (isWhitespace(byte)) {
        this.pos++;
      } else if (byte === 0x25) {
        // A comment runs to the end of its line.
        while (this.pos < this.bytes.length && this.bytes[this.pos] !== 0x0a && this.bytes[this.pos] !== 0x0d)
          this.pos++;
      } else {
        return;
      }
    }
  }

  /** The next object, or the keyword found instead of one. */
  next(depth = 0): PdfObject | PdfKeyword {
    if (depth > MAX_DEPTH) throw new PdfSyntaxError("objects nested too deeply");
    this.skipWhitespace();
    const byte = this.bytes[this.pos]!;
    if (byte === 0x2f) return this.name();
    if (byte === 0x28) return this.literalString();
    if (byte === 0x5b) {
      this.pos++;
      const items: PdfObject[] = [];
      for (;;) {
        this.skipWhitespace();
        if (this.bytes[this.pos] === 0x5d) {
          this.pos++;
          return items;
        }
        items.push(this.object(depth + 1));
      }
    }
    if (byte === 0x3c) {
      this.need(2);
      if (this.bytes[this.pos + 1] !== 0x3c) return this.hexString();
      this.pos += 2;
      const dict = new PdfDict();
      for (;;) {
        this.skipWhitespace();
        if (this.bytes[this.pos] === 0x3e) {
          this.need(2);
          if (this.bytes[this.pos + 1] !== 0x3e) throw new PdfSyntaxError("bad dictionary end");
          this.pos += 2;
          return dict;
        }
        const key = this.next(depth + 1);
        if (!(key instanceof PdfName)) throw new PdfSyntaxError("dictionary key is not a name");
        dict.set(key.name, this.object(depth + 1));
      }
    }
    if (isDigit(byte) || byte === 0x2b || byte === 0x2d || byte === 0x2e) return this.numberOrRef();
    if (isRegular(byte)) {
      const word = this.regularRun();
      if (word === "true") return true;
      if (word === "false") return false;
      if (word === "null") return null;
      return new PdfKeyword(word);
    }
    throw new PdfSyntaxError(`unexpected character ${String.fromCharCode(byte)}`);
  }

  /** The next object; a keyword there is a syntax error. */
  object(depth = 0): PdfObject {
    const value = this.next(depth);
    if (value instanceof PdfKeyword) throw new PdfSyntaxError(`unexpected keyword ${value.word}`);
    return value;
  }

  /** Expects `word` next (after whitespace). */
  keyword(word: string): void {
    const value = this.next();
    if (!(value instanceof PdfKeyword) || value.word !== word) throw new PdfSyntaxError(`expected ${word}`);
  }

  /** A non-negative integer token, as `N G obj` and cross-reference tables have them. */
  integer(): number {
    this.skipWhitespace();
    const start = this.pos;
    while (this.pos < this.bytes.length && isDigit(this.bytes[this.pos]!)) this.pos++;
    this.need();
    if (this.pos === start || isRegular(this.bytes[this.pos]!))
      throw new PdfSyntaxError("expected an integer");
    return Number(this.bytes.toString("latin1", start, this.pos));
  }

  private regularRun(): string {
    const start = this.pos;
    for (;;) {
      this.need();
      if (!isRegular(this.bytes[this.pos]!)) break;
      this.pos++;
    }
    return this.bytes.toString("latin1", start, this.pos);
  }

  private name(): PdfName {
    this.pos++;
    const raw = this.regularRun();
    return new PdfName(
      raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    );
  }

  private numberOrRef(): PdfNumber | PdfRef {
    const text = this.regularRun();
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) {
      // Some writers emit numbers like `--5` or `0.5.1`; readers take the leading number.
      const lenient = /^[+-]*(\d+\.?\d*|\.\d+)/.exec(text);
      if (!lenient) throw new PdfSyntaxError(`bad number ${text}`);
      return new PdfNumber(lenient[1]!);
    }
    if (!/^\d+$/.test(text)) return new PdfNumber(text);
    // `N G R` is a reference: look ahead, and step back when it is not one.
    const after = this.pos;
    try {
      this.skipWhitespace();
      const genStart = this.pos;
      while (isDigit(this.bytes[this.pos] ?? -1)) this.pos++;
      this.need();
      if (this.pos > genStart && !isRegular(this.bytes[this.pos]!)) {
        const gen = Number(this.bytes.toString("latin1", genStart, this.pos));
        this.skipWhitespace();
        this.need(2);
        if (this.bytes[this.pos] === 0x52 && !isRegular(this.bytes[this.pos + 1]!)) {
          this.pos++;
          return new PdfRef(Number(text), gen);
        }
      }
    } catch (error) {
      // The file may end right after a number (a trailer's last value never does, but be kind).
      if (!(error instanceof PdfSyntaxError)) throw error;
    }
    this.pos = after;
    return new PdfNumber(text);
  }

  private hexString(): PdfString {
    this.pos++;
    const digits: number[] = [];
    for (;;) {
      this.need();
      const byte = this.bytes[this.pos++]!;
      if (byte === 0x3e) break;
      if (isWhitespace(byte)) continue;
      const value = hexValue(byte);
      if (value < 0) throw new PdfSyntaxError("bad hex string");
      digits.push(value);
    }
    if (digits.length % 2 === 1) digits.push(0);
    const bytes = Buffer.alloc(digits.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = digits[2 * i]! * 16 + digits[2 * i + 1]!;
    return new PdfString(bytes);
  }

  private literalString(): PdfString {
    this.pos++;
    const out: number[] = [];
    let depth = 1;
    for (;;) {
      this.need();
      const byte = this.bytes[this.pos++]!;
      if (byte === 0x5c) {
        this.need();
        const escaped = this.bytes[this.pos++]!;
        const simple: Record<number, number> = {
          110: 0x0a,
          114: 0x0d,
          116: 0x09,
          98: 0x08,
          102: 0x0c,
          40: 0x28,
          41: 0x29,
          92: 0x5c,
        };
        if (escaped in simple) {
          out.push(simple[escaped]!);
        } else if (escaped >= 0x30 && escaped <= 0x37) {
          let value = escaped - 0x30;
          for (let i = 0; i < 2 && this.bytes[this.pos]! >= 0x30 && this.bytes[this.pos]! <= 0x37; i++) {
            value = value * 8 + (this.bytes[this.pos++]! - 0x30);
          }
          out.push(value & 0xff);
        } else if (escaped === 0x0d) {
          // A backslash at the end of a line continues the string on the next one.
          if (this.bytes[this.pos] === 0x0a) this.pos++;
        } else if (escaped !== 0x0a) {
          out.push(escaped);
        }
        continue;
      }
      if (byte === 0x28) depth++;
      if (byte === 0x29 && --depth === 0) break;
      out.push(byte);
    }
    return new PdfString(Buffer.from(out));
  }
}

const NAME_SAFE = /^[!-~]$/;

function writeName(name: string): string {
  let out = "/";
  for (const char of name) {
    const code = char.charCodeAt(0);
    const plain = code < 0x80 && NAME_SAFE.test(char) && char !== "#" && isRegular(code);
    out += plain ? char : `#${(code & 0xff).toString(16).padStart(2, "0")}`;
  }
  return out;
}

/** An object as PDF text (strings as hex, so any bytes survive). */
export function writeObject(value: PdfObject): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (value instanceof PdfNumber) return value.text;
  if (value instanceof PdfName) return writeName(value.name);
  if (value instanceof PdfString) return `<${value.bytes.toString("hex")}>`;
  if (value instanceof PdfRef) return `${value.num} ${value.gen} R`;
  if (value instanceof PdfDict) {
    let out = "<<";
    for (const [key, item] of value.entries) out += `${writeName(key)} ${writeObject(item)}`;
    return `${out}>>`;
  }
  return `[${value.map(writeObject).join(" ")}]`;
}

export const pdfNumber = (value: number): PdfNumber =>
  new PdfNumber(Number.isInteger(value) ? String(value) : value.toFixed(4).replace(/\.?0+$/, ""));
export const pdfName = (name: string): PdfName => new PdfName(name);
