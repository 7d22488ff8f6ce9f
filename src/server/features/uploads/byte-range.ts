import type { ByteRange } from "../../adapters/storage/storage";

export type RangeAnswer =
  | { kind: "whole" }
  | { kind: "partial"; range: ByteRange }
  | { kind: "unsatisfiable" };

/**
 * What to send for a `Range` header on an object of `size` bytes (RFC 9110 §14). Anything we do not
 * serve as a single range (malformed, several ranges, other units) gets the whole object, as the RFC allows.
 */
export function answerRange(header: string | undefined, size: number): RangeAnswer {
  const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!match) return { kind: "whole" };
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return { kind: "whole" };

  if (first === "") {
    const suffixLength = Number(last);
    if (suffixLength === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", range: { start: Math.max(0, size - suffixLength), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return { kind: "whole" };
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "partial", range: { start, end } };
}
