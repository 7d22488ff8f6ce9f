import { sql } from "kysely";
import type { SellerPost } from "../../../contracts/posts";
import type { Database } from "../../db/database";

/** Posts with their tiers and attached files (one json column each): what the seller's list shows. */
export function sellerPostQuery(db: Database) {
  return db
    .selectFrom("membership_posts as p")
    .selectAll("p")
    .select([
      sql<string[]>`coalesce((
        select json_agg(pt.tier_id order by t.position, t.id)
        from membership_post_tiers pt join membership_tiers t on t.id = pt.tier_id
        where pt.post_id = p.id
      ), '[]'::json)`.as("tier_ids"),
      sql<Array<{ id: string; name: string }>>`coalesce((
        select json_agg(json_build_object('id', f.id, 'name', f.display_name) order by pf.position)
        from membership_post_files pf join product_files f on f.id = pf.product_file_id
        where pf.post_id = p.id
      ), '[]'::json)`.as("files"),
    ]);
}
type SellerPostRow = Awaited<ReturnType<ReturnType<typeof sellerPostQuery>["executeTakeFirstOrThrow"]>>;

export function toSellerPost(row: SellerPostRow): SellerPost {
  return {
    id: row.id,
    productId: row.product_id,
    title: row.title,
    body: row.body,
    tierIds: row.tier_ids,
    files: row.files,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    publishedAt: row.published_at?.toISOString() ?? null,
    emails: { status: row.emails_status ?? "none", count: row.emails_count },
  };
}

/** One post of the seller's, as their list shows it. */
export async function sellerPost(db: Database, sellerId: string, postId: string): Promise<SellerPost> {
  const row = await sellerPostQuery(db)
    .where("p.id", "=", postId)
    .where("p.seller_id", "=", sellerId)
    .executeTakeFirstOrThrow();
  return toSellerPost(row);
}

/** Writes a post's tiers and files as a whole (inside the post's own transaction). */
export async function writePostTargets(
  trx: Database,
  postId: string,
  targets: { tierIds: string[]; fileIds: string[] },
): Promise<void> {
  await trx.deleteFrom("membership_post_tiers").where("post_id", "=", postId).execute();
  await trx.deleteFrom("membership_post_files").where("post_id", "=", postId).execute();
  await trx
    .insertInto("membership_post_tiers")
    .values(targets.tierIds.map((tierId) => ({ post_id: postId, tier_id: tierId })))
    .execute();
  if (targets.fileIds.length > 0) {
    await trx
      .insertInto("membership_post_files")
      .values(
        targets.fileIds.map((fileId, position) => ({ post_id: postId, product_file_id: fileId, position })),
      )
      .execute();
  }
}
