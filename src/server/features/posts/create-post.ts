import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { postInputSchema, SellerPost } from "../../../contracts/posts";
import { type Database, inTransaction } from "../../db/database";
import { assertHasActivePlan } from "../billing";
import { enqueuePostEmails } from "./post-emails-job";
import { checkPostTargets, membershipProductOf } from "./post-product";
import { sellerPost, writePostTargets } from "./post-shapes";

const newPostId = () => `post_${randomBytes(10).toString("base64url")}`;

/**
 * A new post to the members of some tiers of the seller's membership product. Published at once
 * (unless kept a draft): members with access see it in their library, and its emails are queued, in
 * batches, by its job (queue-post-emails.ts), which is enqueued in the same transaction. Writing to
 * members acts in the seller's name: it needs the plan.
 */
export async function createPost(
  db: Database,
  sellerId: string,
  input: z.output<typeof postInputSchema>,
  now: Date,
): Promise<SellerPost> {
  await assertHasActivePlan(db, sellerId, now);
  const product = await membershipProductOf(db, sellerId, input.productId);
  const id = newPostId();
  await inTransaction(db, async (trx) => {
    const targets = await checkPostTargets(trx, product.id, input.tierIds, input.fileIds);
    await trx
      .insertInto("membership_posts")
      .values({
        id,
        seller_id: sellerId,
        product_id: product.id,
        title: input.title,
        body: input.body,
        created_at: now,
        updated_at: now,
        published_at: input.publish ? now : null,
        emails_status: input.publish ? "sending" : null,
        emails_last_email: null,
      })
      .execute();
    await writePostTargets(trx, id, targets);
    if (input.publish) await enqueuePostEmails(trx, id);
  });
  return sellerPost(db, sellerId, id);
}
