import type { ImportedProductPlan } from "../../../contracts/store-import";
import type { Database } from "../../db/database";
import type { ImportLinkTable } from "../../db/schema";

type LinkKind = ImportLinkTable["kind"];

/**
 * What earlier imports of this platform made of these records (all of a kind when no ids are given):
 * platform id → id here. The links are how an import run twice creates nothing twice.
 */
export async function linkedIds(
  db: Database,
  sellerId: string,
  platform: string,
  kind: LinkKind,
  externalIds?: readonly string[],
): Promise<Map<string, string>> {
  if (externalIds?.length === 0) return new Map();
  let query = db
    .selectFrom("import_links")
    .select(["external_id", "local_id"])
    .where("seller_id", "=", sellerId)
    .where("platform", "=", platform)
    .where("kind", "=", kind);
  if (externalIds) query = query.where("external_id", "in", externalIds);
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.external_id, row.local_id]));
}

export async function recordLink(
  trx: Database,
  link: {
    sellerId: string;
    platform: string;
    kind: LinkKind;
    externalId: string;
    localId: string;
    importId: string;
  },
): Promise<void> {
  await trx
    .insertInto("import_links")
    .values({
      seller_id: link.sellerId,
      platform: link.platform,
      kind: link.kind,
      external_id: link.externalId,
      local_id: link.localId,
      import_id: link.importId,
    })
    .onConflict((conflict) => conflict.columns(["seller_id", "platform", "kind", "external_id"]).doNothing())
    .execute();
}

/** Many links of one import in one statement (a batch's orders). */
export async function recordLinks(
  trx: Database,
  link: { sellerId: string; platform: string; kind: LinkKind; importId: string },
  ids: ReadonlyMap<string, string>,
): Promise<void> {
  if (ids.size === 0) return;
  await trx
    .insertInto("import_links")
    .values(
      [...ids].map(([externalId, localId]) => ({
        seller_id: link.sellerId,
        platform: link.platform,
        kind: link.kind,
        external_id: externalId,
        local_id: localId,
        import_id: link.importId,
      })),
    )
    .onConflict((conflict) => conflict.columns(["seller_id", "platform", "kind", "external_id"]).doNothing())
    .execute();
}

/** The files the creator attached to each product of the import (checked product-file uploads), in order. */
export async function attachedProductFiles(
  db: Database,
  importId: string,
): Promise<Map<string, ImportedProductPlan["files"]>> {
  const rows = await db
    .selectFrom("store_import_product_files")
    .innerJoin("uploads", "uploads.id", "store_import_product_files.upload_id")
    .select([
      "store_import_product_files.product_external_id",
      "uploads.id",
      "uploads.original_name",
      "uploads.size_bytes",
    ])
    .where("store_import_product_files.import_id", "=", importId)
    .orderBy("store_import_product_files.position")
    .execute();
  const byProduct = new Map<string, ImportedProductPlan["files"]>();
  for (const row of rows) {
    const files = byProduct.get(row.product_external_id) ?? [];
    files.push({ uploadId: row.id, name: row.original_name, sizeBytes: row.size_bytes });
    byProduct.set(row.product_external_id, files);
  }
  return byProduct;
}
