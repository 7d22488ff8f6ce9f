import { sql } from "kysely";
import { type Database, inTransaction } from "../../db/database";
import type { JobHandler } from "../../jobs/job-queue";
import { type BuyerEmailDeps, EMAIL_BATCH_SIZE, enqueueBuyerEmails, sellerName } from "../audience";
import { postEmail } from "./post-email";
import { queuePostEmailsJob } from "./post-emails-job";
import { postRecipientBatch } from "./post-recipients";

export interface PostEmailDeps extends BuyerEmailDeps {
  db: Database;
  now: () => Date;
}

/**
 * Queues the next batch of a published post's emails, in one transaction, as a broadcast's are
 * (audience/email-batches.ts): the post's row locked, the members after the last one queued
 * (post-recipients.ts), an outbox email each, and the progress. A crash rolls the batch back and the
 * job's next run queues it again; a post deleted meanwhile stops here. True while members are left.
 */
export async function queueNextPostBatch(
  deps: PostEmailDeps,
  postId: string,
  batchSize = EMAIL_BATCH_SIZE,
): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    const post = await trx
      .selectFrom("membership_posts")
      .innerJoin("products", "products.id", "membership_posts.product_id")
      .selectAll("membership_posts")
      .select("products.title as product_title")
      .where("membership_posts.id", "=", postId)
      .where("membership_posts.emails_status", "=", "sending")
      .forUpdate("membership_posts")
      .executeTakeFirst();
    if (!post) return false;
    const now = deps.now();
    const { recipients, candidates } = await postRecipientBatch(
      trx,
      post,
      post.emails_last_email,
      batchSize,
      now,
    );
    const attachments = await trx
      .selectFrom("membership_post_files")
      .innerJoin("product_files", "product_files.id", "membership_post_files.product_file_id")
      .select("product_files.display_name")
      .where("membership_post_files.post_id", "=", post.id)
      .orderBy("membership_post_files.position")
      .execute();
    const content = {
      title: post.title,
      body: post.body,
      productTitle: post.product_title,
      sellerName: await sellerName(trx, post.seller_id),
      attachmentNames: attachments.map((file) => file.display_name),
    };
    await enqueueBuyerEmails(trx, deps, post.seller_id, recipients, now, (links) =>
      postEmail(content, links),
    );
    const finished = candidates.length < batchSize;
    await trx
      .updateTable("membership_posts")
      .set({
        emails_last_email: candidates.at(-1) ?? post.emails_last_email,
        emails_count: sql`emails_count + ${recipients.length}`,
        ...(finished ? { emails_status: "sent" as const } : {}),
      })
      .where("id", "=", post.id)
      .execute();
    return !finished;
  });
}

/** The job of a published post: one batch per run, then "again" while members are left. */
export function queuePostEmailsJobHandler(
  deps: PostEmailDeps,
  batchSize = EMAIL_BATCH_SIZE,
): JobHandler<{ postId: string }> {
  return {
    kind: queuePostEmailsJob,
    run: async ({ postId }) => ((await queueNextPostBatch(deps, postId, batchSize)) ? "again" : undefined),
  };
}
