import { type SelectQueryBuilder, sql } from "kysely";
import { z } from "zod";
import type { BucketName } from "../../../adapters/storage/storage";
import type { Database } from "../../../db/database";
import { badRequest } from "../../../http/errors";
import { storeCurrencyOf } from "../../store-currency";

/** The rows one reader asks for at a time while an archive is written. */
export const EXPORT_PAGE_SIZE = 500;

/** A stored object a page's records refer to: where its bytes are, and where they go in the archive. */
export interface ArchiveObject {
  path: string;
  bucket: BucketName;
  key: string;
  /** As recorded when it was stored, which progress counts against; null when not recorded (images). */
  sizeBytes: number | null;
}

/** One page of records, the objects they refer to (products' files and covers), and where the next starts. */
export interface ReaderPage<R> {
  records: R[];
  objects: ArchiveObject[];
  /** Null on the last page. */
  nextCursor: string | null;
}

export interface PageOptions {
  /** A page's `nextCursor`: start after it. */
  cursor?: string | undefined;
  limit?: number;
}

/** Reads one kind of a seller's records, a page at a time, from `options.cursor` on. */
export type Reader<R> = (
  db: Database,
  sellerId: string,
  options?: PageOptions,
) => AsyncGenerator<ReaderPage<R>>;

type Key = readonly (string | number)[];

/** A cursor is the last row's key as JSON, base64url: opaque to clients, checked against its kind's shape. */
const encodeKey = (key: Key) => Buffer.from(JSON.stringify(key)).toString("base64url");

function decodeKey<K extends Key>(cursor: string, schema: z.ZodType<K>): K {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw badRequest("Invalid cursor");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest("Invalid cursor");
  return parsed.data;
}

/** Key shapes: a time and an id (the time as ISO text), or a single text key. */
export const timeIdKey = z.tuple([z.iso.datetime(), z.string()]);
export const textKey = z.tuple([z.string()]);

export interface KeysetSpec<Row, K extends Key, R> {
  key: z.ZodType<K>;
  /** Up to `limit` of the seller's rows after `after` (all from the start when undefined), in key order. */
  fetch(after: K | undefined, limit: number): Promise<Row[]>;
  keyOf(row: Row): K;
  /** The page's records and the objects they refer to. */
  toPage(rows: Row[]): Promise<Omit<ReaderPage<R>, "nextCursor">>;
}

/**
 * Keyset paging (a cursor is a position, so page 500 costs what page 1 does, and rows added meanwhile are
 * never seen twice): one more row than asked tells whether another page follows.
 */
export async function* keysetPages<Row, K extends Key, R>(
  spec: KeysetSpec<Row, K, R>,
  options: PageOptions = {},
): AsyncGenerator<ReaderPage<R>> {
  const limit = options.limit ?? EXPORT_PAGE_SIZE;
  let after = options.cursor === undefined ? undefined : decodeKey(options.cursor, spec.key);
  for (;;) {
    const rows = await spec.fetch(after, limit + 1);
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page.at(-1);
    if (last) after = spec.keyOf(last);
    const { records, objects } = page.length > 0 ? await spec.toPage(page) : { records: [], objects: [] };
    yield { records, objects, nextCursor: more && after ? encodeKey(after) : null };
    if (!more) return;
  }
}

/** Records only, for pages whose records refer to no stored object. */
export const recordsOnly =
  <Row, R>(map: (rows: Row[]) => Promise<R[]> | R[]) =>
  async (rows: Row[]) => ({ records: await map(rows), objects: [] });

export const iso = (date: Date) => date.toISOString();
export const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

/** The store currency: what prices, totals and analytics count in. */
export const storeCurrency = async (db: Database, sellerId: string) =>
  (await storeCurrencyOf(db, sellerId)).currency;

/**
 * A seller's rows after a `timeIdKey` position, oldest first, at most `limit`: the paging of every reader
 * keyed by (created_at, id), on a query of one table already limited to the seller (a row comparison its
 * (seller, created_at, id) index answers).
 */
export function afterTimeId<QB extends SelectQueryBuilder<never, never, unknown>>(
  query: QB,
  after: readonly [string, string] | undefined,
  limit: number,
): QB {
  const from = after
    ? query.where(sql<boolean>`(created_at, id) > (${new Date(after[0])}, ${after[1]})`)
    : query;
  return from.orderBy(sql`created_at`).orderBy(sql`id`).limit(limit) as unknown as QB;
}
