/**
 * The stamp's text in Helvetica, one of the 14 fonts every PDF reader has (nothing is embedded), with
 * WinAnsiEncoding: one byte per character, so a stamped file's bytes hold the email as typed.
 */

/** Helvetica's advance widths (1/1000 em) for the printable ASCII characters, from its AFM metrics. */
// biome-ignore format: a table, 16 characters a row.
const ASCII_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 to ?
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ to O
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P to _
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` to o
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p to ~
];
const MIDDLE_DOT = 0xb7;
const MIDDLE_DOT_WIDTH = 278;
const QUESTION_MARK = 0x3f;

/** The text as WinAnsi bytes: printable ASCII as is, the middle dot, anything else as "?". */
export function winAnsiBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0x20 && code <= 0x7e) bytes.push(code);
    else if (code === 0xb7) bytes.push(MIDDLE_DOT);
    else bytes.push(QUESTION_MARK);
  }
  return Buffer.from(bytes);
}

/** The width of WinAnsi bytes in Helvetica at `size` points. */
export function helveticaWidth(bytes: Buffer, size: number): number {
  let units = 0;
  for (const byte of bytes)
    units += byte === MIDDLE_DOT ? MIDDLE_DOT_WIDTH : (ASCII_WIDTHS[byte - 0x20] ?? 556);
  return (units * size) / 1000;
}

/** A PDF literal string of WinAnsi bytes: the email stays readable in the file. */
export function literalString(bytes: Buffer): Buffer {
  const out: number[] = [0x28];
  for (const byte of bytes) {
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out.push(0x5c);
    out.push(byte);
  }
  out.push(0x29);
  return Buffer.from(out);
}
