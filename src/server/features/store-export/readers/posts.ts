import { type ArchivePost, productFilePath } from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import { afterTimeId, iso, isoOrNull, keysetPages, type PageOptions, recordsOnly, timeIdKey } from "./keyset";

/** posts.ndjson: each post to members (drafts too) with its tiers and the product files it attaches. */
export function readPosts(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: timeIdKey,
      fetch: (after, limit) =>
        afterTimeId(
          db.selectFrom("membership_posts").selectAll().where("seller_id", "=", sellerId),
          after,
          limit,
        ).execute(),
      keyOf: (row) => [iso(row.created_at), row.id] as [string, string],
      toPage: recordsOnly(async (rows) => {
        const ids = rows.map((row) => row.id);
        const [tiers, files] = await Promise.all([
          db
            .selectFrom("membership_post_tiers")
            .select(["post_id", "tier_id"])
            .where("post_id", "in", ids)
            .orderBy("post_id")
            .orderBy("tier_id")
            .execute(),
          db
            .selectFrom("membership_post_files")
            .innerJoin("product_files", "product_files.id", "membership_post_files.product_file_id")
            .select([
              "membership_post_files.post_id",
              "membership_post_files.position",
              "product_files.id",
              "product_files.product_id",
              "product_files.display_name",
            ])
            .where("membership_post_files.post_id", "in", ids)
            .orderBy("membership_post_files.post_id")
            .orderBy("membership_post_files.position")
            .execute(),
        ]);
        return rows.map(
          (row): ArchivePost => ({
            id: row.id,
            productId: row.product_id,
            title: row.title,
            body: row.body,
            tierIds: tiers.filter((tier) => tier.post_id === row.id).map((tier) => tier.tier_id),
            files: files
              .filter((file) => file.post_id === row.id)
              .map((file) => ({
                fileId: file.id,
                path: productFilePath(file.product_id, file.id, file.display_name),
                position: file.position,
              })),
            publishedAt: isoOrNull(row.published_at),
            emails: { status: row.emails_status, count: row.emails_count },
            createdAt: iso(row.created_at),
            updatedAt: iso(row.updated_at),
          }),
        );
      }),
    },
    options,
  );
}
