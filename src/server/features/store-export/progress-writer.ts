import type { Database } from "../../db/database";
import type { ArchiveProgress } from "./build-archive";

/** How often progress is written while an archive is built: the page asks every 2 s. */
const EVERY_MS = 1000;

/**
 * Keeps an export's progress and writes it to its row at most once a second (never per row or chunk),
 * one write at a time. Progress is only shown: a write that fails is left to the next.
 */
export function progressWriter(
  db: Database,
  exportId: string,
  now: () => Date,
): ArchiveProgress & { flush(): Promise<void> } {
  const state = { bytes_done: 0, bytes_total: 0, records_done: 0 };
  let writing: Promise<void> = Promise.resolve();
  let writtenAt = 0;
  const write = () => {
    const values = { ...state };
    writtenAt = now().getTime();
    writing = writing
      .then(() => db.updateTable("store_exports").set(values).where("id", "=", exportId).execute())
      .then(
        () => undefined,
        () => undefined,
      );
  };
  const writeSometimes = () => {
    if (now().getTime() - writtenAt >= EVERY_MS) write();
  };
  return {
    total(bytes) {
      state.bytes_total = bytes;
      write();
    },
    bytes(count) {
      state.bytes_done += count;
      writeSometimes();
    },
    records(count) {
      state.records_done += count;
      writeSometimes();
    },
    async flush() {
      write();
      await writing;
    },
  };
}
