import { resourceMissing } from "../errors.js";
import { type Change, type RecordChange, StateFiles } from "./journal.js";
import {
  type EmulatorState,
  type EventRecord,
  emptyState,
  type KeyedRecords,
  type KeyedSectionName,
  type KeyedState,
  type Owned,
  type OwnedCollectionName,
  type OwnedObjects,
  type OwnedState,
  type RecordSectionName,
  type RecordSections,
  type Scope,
} from "./types.js";

/** How many events the log keeps; older ones are dropped so the state stays small. */
const MAX_EVENTS = 2000;
/** The journal is folded into a new snapshot once it holds this much. */
const COMPACT_AFTER_BYTES = 8 * 1024 * 1024;

type RecordState = { [K in RecordSectionName]: Record<string, RecordSections[K]> };

/**
 * Holds the emulator's state in memory and, given a file, on disk. Every write goes through a method
 * here that notes which record it changed; `commit` makes the noted changes durable, and runs before
 * each response and each webhook (see server.ts and webhooks/deliver.ts), so nothing answered is lost
 * to a crash. A record never holds an object another record holds (embedded objects are copies), so
 * writing the changed records is writing every change.
 */
export class Store {
  state: EmulatorState;
  private readonly files: StateFiles | undefined;
  /** Records changed since the last commit, in the order they were first changed. */
  private readonly pending = new Map<string, () => Change>();

  constructor(file?: string) {
    this.files = file ? new StateFiles(file) : undefined;
    const saved = this.files?.read(applyChange);
    this.state = saved?.version === 1 ? { ...emptyState(), ...saved } : emptyState();
    // Starts from one fresh snapshot, so the journal only ever holds this run's changes.
    this.files?.writeSnapshot(this.state);
  }

  find<K extends OwnedCollectionName>(
    collection: K,
    account: Scope,
    id: string,
  ): OwnedObjects[K] | undefined {
    const owned = this.owned(collection)[id];
    return owned && owned.account === account ? owned.object : undefined;
  }

  /**
   * Like `find`, but answers Stripe's `resource_missing` (`No such customer: 'cus_…'`): 404 for the id in
   * the path, 400 naming the parameter otherwise.
   */
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

  /** Stores a new object, or an object changed in place: call it after every change. */
  put<K extends OwnedCollectionName>(
    collection: K,
    account: Scope,
    object: OwnedObjects[K] & { id: string },
  ): void {
    const objects: Record<string, Owned<OwnedObjects[K]>> = this.owned(collection);
    objects[object.id] = { account, object };
    this.noteRecord(collection, object.id);
  }

  /** Deletes an object of one account (a deleted coupon, an invoice item an invoice took up). */
  delete(collection: OwnedCollectionName, account: Scope, id: string): void {
    if (this.owned(collection)[id]?.account !== account) return;
    delete this.owned(collection)[id];
    this.noteRecord(collection, id);
  }

  /** Objects of a collection in one account, newest first (Stripe's list order). */
  list<K extends OwnedCollectionName>(collection: K, account: Scope): OwnedObjects[K][] {
    const all: OwnedObjects[K][] = [];
    for (const owned of Object.values(this.owned(collection))) {
      if (owned.account === account) all.push(owned.object);
    }
    return all.reverse();
  }

  /** Stores a record that belongs to no account scope, new or changed in place. */
  set<K extends KeyedSectionName>(section: K, id: string, value: KeyedRecords[K]): void {
    const records: Record<string, KeyedRecords[K]> = this.keyed(section);
    records[id] = value;
    this.noteRecord(section, id);
  }

  remove(section: KeyedSectionName, id: string): void {
    delete this.state[section][id];
    this.noteRecord(section, id);
  }

  addEvent(record: EventRecord): void {
    this.state.events.push(record);
    if (this.state.events.length > MAX_EVENTS)
      this.state.events.splice(0, this.state.events.length - MAX_EVENTS);
    this.eventChanged(record);
  }

  /** A delivery attempt changed the record's status. */
  eventChanged(record: EventRecord): void {
    this.pending.set(`events:${record.event.id}`, () => ({
      section: "events",
      id: record.event.id,
      value: record,
    }));
  }

  setClockOffset(seconds: number): void {
    this.state.clockOffsetSeconds = seconds;
    this.pending.set("clockOffsetSeconds", () => ({
      section: "clockOffsetSeconds",
      value: this.state.clockOffsetSeconds,
    }));
  }

  reset(): void {
    this.state = emptyState();
    this.pending.clear();
    this.files?.writeSnapshot(this.state);
  }

  /**
   * Makes every change since the last commit durable (journal append + fsync). Cheap when nothing
   * changed. On failure the changes stay pending, so the next commit tries again.
   */
  commit(): void {
    if (this.pending.size === 0) return;
    const changes = [...this.pending.values()].map((change) => change());
    if (this.files) {
      this.files.append(changes);
      if (this.files.journalBytes > COMPACT_AFTER_BYTES) this.files.writeSnapshot(this.state);
    }
    this.pending.clear();
  }

  /** Commits, folds the journal into the snapshot and closes the files. */
  close(): void {
    this.commit();
    this.files?.writeSnapshot(this.state);
    this.files?.close();
  }

  private owned<K extends OwnedCollectionName>(name: K): OwnedState[K] {
    return this.state[name];
  }

  private keyed<K extends KeyedSectionName>(name: K): KeyedState[K] {
    return this.state[name];
  }

  private noteRecord<K extends RecordSectionName>(section: K, id: string): void {
    const records: RecordState = this.state;
    this.pending.set(
      `${section}:${id}`,
      (): RecordChange<K> => ({
        section,
        id,
        value: records[section][id] ?? null,
      }),
    );
  }
}

/** Replays one journal entry; see `Change`. */
function applyChange(state: EmulatorState, change: Change): void {
  if (change.section === "clockOffsetSeconds") {
    state.clockOffsetSeconds = change.value;
  } else if (change.section === "events") {
    const index = state.events.findIndex((record) => record.event.id === change.id);
    if (index >= 0) state.events[index] = change.value;
    else state.events.push(change.value);
    if (state.events.length > MAX_EVENTS) state.events.splice(0, state.events.length - MAX_EVENTS);
  } else {
    applyRecordChange(state, change);
  }
}

function applyRecordChange<K extends RecordSectionName>(state: RecordState, change: RecordChange<K>): void {
  const records: Record<string, RecordSections[K]> = state[change.section];
  if (change.value === null) delete records[change.id];
  else records[change.id] = change.value;
}
