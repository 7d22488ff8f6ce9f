import type { z } from "zod";
import { tierOtherPricesProblem } from "../../../../contracts/memberships";
import {
  ARCHIVE_RECORD_FILES,
  type ArchiveManifest,
  type ArchiveProduct,
  type ArchiveRecord,
  type ArchiveRecordKind,
  type ArchiveStore,
  archiveStoreSchema,
  STORE_PATH,
} from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import { ImportFileError } from "../platforms";
import { ARCHIVE_MESSAGES, type OpenArchive } from "./archive-zip";

/** The kinds in the order the run restores them (products before what names them, orders before keys). */
export const ARCHIVE_PHASES = [
  "products",
  "discount-codes",
  "customers",
  "orders",
  "license-keys",
  "memberships",
  "posts",
  "invoices",
  "webhooks",
  "analytics-product-days",
  "analytics-source-days",
  "analytics-store-view-days",
] as const satisfies readonly ArchiveRecordKind[];

export type ArchiveItem<K extends ArchiveRecordKind> =
  | { line: number; record: ArchiveRecord<K>; problem?: undefined }
  | { line: number; record?: undefined; problem: string };

/** The manifest's entries by path: each entry is checked against its size and SHA-256 as it is read. */
export const manifestIndex = (manifest: ArchiveManifest) =>
  new Map(manifest.files.map((file) => [file.path, file]));

/**
 * One NDJSON file's records, each checked against its schema and then the rules this store keeps
 * (recordProblem): a line that fails either is a problem, with its line, which the dry run reports and
 * the run skips. `storeCurrency` is the currency the store will sell in after the import.
 */
export async function* archiveRecords<K extends ArchiveRecordKind>(
  archive: OpenArchive,
  manifest: ArchiveManifest,
  kind: K,
  storeCurrency: string,
): AsyncGenerator<ArchiveItem<K>> {
  const { path, schema } = ARCHIVE_RECORD_FILES[kind];
  for await (const { line, text } of archive.lines(path, manifestIndex(manifest).get(path))) {
    if (text === null) {
      yield { line, problem: "The line is too long to be a record." };
      continue;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      yield { line, problem: "The line is not JSON." };
      continue;
    }
    const parsed = (schema as z.ZodType).safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      yield {
        line,
        problem: `Not a valid record: ${issue?.path.join(".") || "the record"}: ${issue?.message}`,
      };
      continue;
    }
    const record = parsed.data as ArchiveRecord<K>;
    const refused = recordProblem(kind, record, storeCurrency);
    if (refused !== undefined) {
      yield { line, problem: refused };
      continue;
    }
    yield { line, record };
  }
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * What this store would refuse in a record its schema accepts: a product whose tier has a price in
 * another currency the tier editor refuses (the store's own currency, one buyers are not shown, twice,
 * below Stripe's smallest charge there, a yearly amount where the tier has no yearly price or none where
 * it has one: contracts/memberships.ts, tierOtherPricesProblem). Undefined when it may be imported.
 */
function recordProblem<K extends ArchiveRecordKind>(
  kind: K,
  record: ArchiveRecord<K>,
  storeCurrency: string,
): string | undefined {
  if (kind !== "products") return undefined;
  for (const tier of (record as ArchiveProduct).tiers) {
    const problem = tierOtherPricesProblem(tier.otherPrices, storeCurrency, tier.yearlyPriceCents !== null);
    if (problem !== undefined)
      return `The tier "${tier.name}": ${sentence(problem)} The product is not imported.`;
  }
  return undefined;
}

export async function archiveStore(archive: OpenArchive, manifest: ArchiveManifest): Promise<ArchiveStore> {
  const bytes = await archive.readWhole(STORE_PATH, manifestIndex(manifest).get(STORE_PATH));
  const parsed = archiveStoreSchema.safeParse(JSON.parse(bytes.toString("utf8")));
  if (!parsed.success)
    throw new ImportFileError(archive.fileName, ARCHIVE_MESSAGES.badManifest(archive.fileName));
  return parsed.data;
}

/** The archive file of an import (an import of a Flatfee store has exactly one). */
export async function importArchiveFile(db: Database, importId: string) {
  const file = await db
    .selectFrom("store_import_files")
    .select(["file_name", "storage_key", "size_bytes"])
    .where("import_id", "=", importId)
    .orderBy("position")
    .executeTakeFirstOrThrow();
  return { fileName: file.file_name, storageKey: file.storage_key, sizeBytes: Number(file.size_bytes) };
}

/** A store's currency is the archive's until it has sold something (a paid order fixes it). */
export async function hasSales(db: Database, sellerId: string): Promise<boolean> {
  const sale = await db
    .selectFrom("orders")
    .select("id")
    .where("seller_id", "=", sellerId)
    .where("amount_cents", ">", 0)
    .limit(1)
    .executeTakeFirst();
  return sale !== undefined;
}

/** Subscriptions still alive on the source's Stripe account: their members are invited to subscribe again. */
export const LIVE_SUBSCRIPTION = new Set(["active", "trialing", "past_due"]);
