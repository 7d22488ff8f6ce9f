import type { z } from "zod";
import { POST_MESSAGES, type postUpdateSchema, type SellerPost } from "../../../contracts/posts";
import { type Database, inTransaction } from "../../db/database";
import { notFound } from "../../http/errors";
import { assertHasActivePlan } from "../billing";
import { enqueuePostEmails } from "./post-emails-job";
import { checkPostTargets } from "./post-product";
import { sellerPost, writePostTargets } from "./post-shapes";

/**
 * An edit of the seller's post: title, body, tiers and files, as a whole. A published post is not
 * emailed again (members see the edit in their library); a draft published by this edit is emailed
 * then, once. Another seller's post is not found.
 */
export async function updatePost(
  db: Database,
  sellerId: string,
  postId: string,
  input: z.output<typeof postUpdateSchema>,
  now: Date,
): Promise<SellerPost> {
  await assertHasActivePlan(db, sellerId, now);
  const existing = await db
    .selectFrom("membership_posts")
    .select(["id", "product_id"])
    .where("id", "=", postId)
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  if (!existing) throw notFound(POST_MESSAGES.postNotFound);
  await inTransaction(db, async (trx) => {
    const targets = await checkPostTargets(trx, existing.product_id, input.tierIds, input.fileIds);
    const post = await trx
      .updateTable("membership_posts")
      .set({ title: input.title, body: input.body, updated_at: now })
      .where("id", "=", postId)
      .where("seller_id", "=", sellerId)
      .returning(["published_at"])
      .executeTakeFirst();
    // Deleted meanwhile.
    if (!post) throw notFound(POST_MESSAGES.postNotFound);
    await writePostTargets(trx, postId, targets);
    if (input.publish && post.published_at === null) {
      // Only the edit that finds it a draft publishes it: two at once cannot email twice.
      const published = await trx
        .updateTable("membership_posts")
        .set({ published_at: now, emails_status: "sending" })
        .where("id", "=", postId)
        .where("published_at", "is", null)
        .returning("id")
        .executeTakeFirst();
      if (published) await enqueuePostEmails(trx, postId);
    }
  });
  return sellerPost(db, sellerId, postId);
}
