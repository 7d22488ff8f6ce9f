import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { resourceMissing } from "../errors.js";
import {
  type EmulatorState,
  emptyState,
  type Owned,
  type OwnedCollectionName,
  type OwnedObjects,
  type OwnedState,
  type Scope,
} from "./types.js";

/** How many events the log keeps; older ones are dropped so the state file stays small. */
const MAX_EVENTS = 2000;
const SAVE_DELAY_MS = 25;

/** Holds the emulator's state in memory and, given a file, writes it back shortly after each change. */
export class Store {
  state: EmulatorState;
  private saveTimer: NodeJS.Timeout | undefined;

  constructor(private readonly file?: string) {
    this.state = file ? loadState(file) : emptyState();
  }

  find<K extends OwnedCollectionName>(
    collection: K,
    account: Scope,
    id: string,
  ): OwnedObjects[K] | undefined {
    const owned = this.collection(collection)[id];
    return owned && owned.account === account ? owned.object : undefined;
  }

  /** Like `find`, but answers Stripe's 404 `resource_missing` (`No such customer: 'cus_…'`). */
  get<K extends OwnedCollectionName>(
    collection: K,
    account: Scope,
    id: string,
    kind: string,
    param = "id",
  ): OwnedObjects[K] {
    const found = this.find(collection, account, id);
    if (!found) throw resourceMissing(kind, id, param);
    return found;
  }

  put<K extends OwnedCollectionName>(
    collection: K,
    account: Scope,
    object: OwnedObjects[K] & { id: string },
  ): void {
    const objects: Record<string, Owned<OwnedObjects[K]>> = this.collection(collection);
    objects[object.id] = { account, object };
    this.changed();
  }

  /** Objects of a collection in one account, newest first (Stripe's list order). */
  list<K extends OwnedCollectionName>(collection: K, account: Scope): OwnedObjects[K][] {
    const all: OwnedObjects[K][] = [];
    for (const owned of Object.values(this.collection(collection))) {
      if (owned.account === account) all.push(owned.object);
    }
    return all.reverse();
  }

  private collection<K extends OwnedCollectionName>(name: K): OwnedState[K] {
    return this.state[name];
  }

  trimEvents(): void {
    if (this.state.events.length > MAX_EVENTS)
      this.state.events.splice(0, this.state.events.length - MAX_EVENTS);
  }

  reset(): void {
    this.state = emptyState();
    this.changed();
  }

  changed(): void {
    if (!this.file || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  /** Writes to a temporary file and renames it, so a crash never leaves half a state file. */
  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.state));
    renameSync(temporary, this.file);
  }
}

function loadState(file: string): EmulatorState {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return emptyState();
  }
  // The file is only ever written by `flush` above, from this same type.
  const parsed: EmulatorState = JSON.parse(text);
  return parsed.version === 1 ? { ...emptyState(), ...parsed } : emptyState();
}
