import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import type { EmulatorState, EventRecord, RecordSectionName, RecordSections } from "./types.js";

export interface RecordChange<K extends RecordSectionName = RecordSectionName> {
  section: K;
  id: string;
  value: RecordSections[K] | null;
}

/**
 * One changed record: its latest value, or `null` once deleted. Values are whole records, so
 * applying a change twice gives the same state (a crash between a snapshot and the journal's
 * truncation replays changes the snapshot already holds).
 */
export type Change =
  | RecordChange
  | { section: "events"; id: string; value: EventRecord }
  | { section: "clockOffsetSeconds"; value: number };

/**
 * The state on disk: a snapshot (`file`, the whole state as JSON) and a journal beside it
 * (`file.journal`, one line per commit listing the records it changed), fsync'ed before the
 * emulator answers. A commit costs one small append instead of rewriting the whole state, which
 * grows to megabytes (2,000 events, every object); the journal is folded into a new snapshot now
 * and then.
 */
export class StateFiles {
  private readonly journalFile: string;
  private journal: number;

  constructor(private readonly file: string) {
    this.journalFile = `${file}.journal`;
    mkdirSync(dirname(file), { recursive: true });
    this.journal = openSync(this.journalFile, "a");
  }

  /** The snapshot with the journal replayed over it, or `undefined` when there is no snapshot yet. */
  read(apply: (state: EmulatorState, change: Change) => void): EmulatorState | undefined {
    let state: EmulatorState | undefined;
    try {
      // Only ever written by `writeSnapshot`, from this same type.
      state = JSON.parse(readFileSync(this.file, "utf8"));
    } catch {
      return undefined;
    }
    if (!state) return undefined;
    const lines = readFileSync(this.journalFile, "utf8").split("\n");
    lines.forEach((line, index) => {
      if (line === "") return;
      let changes: Change[];
      try {
        changes = JSON.parse(line);
      } catch (error) {
        // Only the last line can be cut short (a crash while appending); that commit never answered.
        if (index === lines.length - 1) return;
        throw error;
      }
      for (const change of changes) if (state) apply(state, change);
    });
    return state;
  }

  get journalBytes(): number {
    return fstatSync(this.journal).size;
  }

  append(changes: Change[]): void {
    writeSync(this.journal, `${JSON.stringify(changes)}\n`);
    fsyncSync(this.journal);
  }

  /** Writes the whole state to a temporary file, renames it over the snapshot, then empties the journal. */
  writeSnapshot(state: EmulatorState): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    const descriptor = openSync(temporary, "w");
    try {
      writeSync(descriptor, JSON.stringify(state));
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, this.file);
    syncDirectory(dirname(this.file));
    ftruncateSync(this.journal, 0);
    fsyncSync(this.journal);
  }

  close(): void {
    closeSync(this.journal);
  }
}

/** Makes a rename durable. Some platforms cannot open a directory; there the rename is as durable as it gets. */
function syncDirectory(directory: string): void {
  let descriptor: number;
  try {
    descriptor = openSync(directory, "r");
  } catch {
    return;
  }
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
