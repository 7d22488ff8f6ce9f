import type { ArchiveLicenseKey } from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import { iso, isoOrNull, keysetPages, type PageOptions, recordsOnly, textKey } from "./keyset";

/** license-keys.ndjson: each delivered order's key with its uses, keyed by its order (one key per order). */
export function readLicenseKeys(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: textKey,
      fetch: (after, limit) =>
        db
          .selectFrom("license_keys")
          .selectAll()
          .where("seller_id", "=", sellerId)
          .$if(after !== undefined, (query) => query.where("order_id", ">", after![0]))
          .orderBy("order_id")
          .limit(limit)
          .execute(),
      keyOf: (row) => [row.order_id] as [string],
      toPage: recordsOnly((rows) =>
        rows.map(
          (row): ArchiveLicenseKey => ({
            orderId: row.order_id,
            productId: row.product_id,
            key: row.key,
            uses: row.uses,
            lastVerifiedAt: isoOrNull(row.last_verified_at),
            disabled: row.disabled_at !== null,
            disabledAt: isoOrNull(row.disabled_at),
            createdAt: iso(row.created_at),
          }),
        ),
      ),
    },
    options,
  );
}
