import { POST_MESSAGES } from "../../../contracts/posts";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";

/**
 * Deletes the seller's post: gone from every library at once, with its tiers and attachments (their
 * downloads through it end too). Emails still being queued stop at the next batch (the job finds no
 * post); those already queued go out. Deleting needs no plan.
 */
export async function deletePost(db: Database, sellerId: string, postId: string): Promise<void> {
  const deleted = await db
    .deleteFrom("membership_posts")
    .where("id", "=", postId)
    .where("seller_id", "=", sellerId)
    .returning("id")
    .executeTakeFirst();
  if (!deleted) throw notFound(POST_MESSAGES.postNotFound);
}
