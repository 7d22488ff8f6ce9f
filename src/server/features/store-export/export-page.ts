import type { ArchiveRecord } from "../../../contracts/store-archive";
import type { ExportApiKind, ExportApiQuery } from "../../../contracts/store-export";
import type { Database } from "../../db/database";
import { RECORD_READERS } from "./record-readers";

/** One page of a kind for the seller API's `/api/v1/export/{kind}`: the same reader the archive uses. */
export async function exportPage<K extends ExportApiKind>(
  db: Database,
  sellerId: string,
  kind: K,
  query: ExportApiQuery,
): Promise<{ data: ArchiveRecord<K>[]; nextCursor: string | null }> {
  const pages = RECORD_READERS[kind](db, sellerId, { cursor: query.cursor, limit: query.limit });
  const first = await pages.next();
  await pages.return(undefined);
  return first.done
    ? { data: [], nextCursor: null }
    : { data: first.value.records as ArchiveRecord<K>[], nextCursor: first.value.nextCursor };
}
