import type { ArchiveDiscountCode } from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import { iso, isoOrNull, keysetPages, type PageOptions, recordsOnly, textKey } from "./keyset";

/** discount-codes.ndjson: each code (unique per seller, its key) with the products it applies to. */
export function readDiscountCodes(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: textKey,
      fetch: (after, limit) =>
        db
          .selectFrom("discount_codes")
          .selectAll()
          .where("seller_id", "=", sellerId)
          .$if(after !== undefined, (query) => query.where("code", ">", after![0]))
          .orderBy("code")
          .limit(limit)
          .execute(),
      keyOf: (row) => [row.code] as [string],
      toPage: recordsOnly(async (rows) => {
        const products = await db
          .selectFrom("discount_code_products")
          .select(["discount_code_id", "product_id"])
          .where(
            "discount_code_id",
            "in",
            rows.map((row) => row.id),
          )
          .orderBy("discount_code_id")
          .orderBy("product_id")
          .execute();
        return rows.map(
          (row): ArchiveDiscountCode => ({
            id: row.id,
            code: row.code,
            kind: row.kind,
            value: row.value,
            currency: row.currency,
            allProducts: row.all_products,
            productIds: products
              .filter((product) => product.discount_code_id === row.id)
              .map((product) => product.product_id),
            startsAt: isoOrNull(row.starts_at),
            endsAt: isoOrNull(row.ends_at),
            maxUses: row.max_uses,
            usesUsed: row.uses_used,
            paused: row.paused,
            membershipDuration: row.membership_duration,
            createdAt: iso(row.created_at),
            updatedAt: iso(row.updated_at),
          }),
        );
      }),
    },
    options,
  );
}
