import { PassThrough, Readable } from "node:stream";
import type * as Yauzl from "yauzl";
import type { Storage } from "../../adapters/storage/storage";

/**
 * yauzl over ranged reads of a stored object (product-files bucket): a ZIP is never loaded whole, only
 * its central directory and the entries read. yauzl is loaded on first use (ZIPs are rare; the server
 * starts without it). Used by the Flatfee archive (flatfee-archive/archive-zip.ts) and the products'
 * ZIPs of files (product-zip.ts).
 */
export async function storageReader(
  storage: Storage,
  key: string,
): Promise<{ yauzl: typeof Yauzl; reader: Yauzl.RandomAccessReader }> {
  const yauzl = (await import("yauzl")).default;
  class StorageReader extends yauzl.RandomAccessReader {
    override _readStreamForRange(start: number, end: number): Readable {
      const out = new PassThrough();
      if (end <= start) {
        out.end();
        return out;
      }
      storage
        .read("product-files", key, { start, end: end - 1 })
        .then((stream) => {
          stream.on("error", (error) => out.destroy(error));
          stream.pipe(out);
        })
        .catch((error: Error) => out.destroy(error));
      return out;
    }
  }
  return { yauzl, reader: new StorageReader() };
}

/**
 * A ZIP entry's inflated bytes as the caller reads them, each chunk passed to `check` (which throws to
 * refuse) and `atEnd` called once they are all read; a failure to inflate becomes `broken()`. Nothing
 * flows before the first read, and yauzl's early failures wait for it: a caller may spend a while in the
 * database first, and no error may arrive while nobody listens. Closing the result stops the inflating.
 */
export function checkedEntryBytes(
  source: Readable,
  { check, atEnd, broken }: { check: (chunk: Buffer) => void; atEnd: () => void; broken: () => Error },
): Readable {
  source.on("error", () => {});
  async function* checked() {
    const chunks = source[Symbol.asyncIterator]();
    while (true) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch {
        throw broken();
      }
      if (next.done) break;
      check(next.value);
      yield next.value;
    }
    atEnd();
  }
  const bytes = Readable.from(checked(), { objectMode: false });
  bytes.on("close", () => source.destroy());
  return bytes;
}
