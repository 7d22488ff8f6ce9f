import { sql } from "kysely";
import { hasMembershipAccess } from "../../../contracts/memberships";
import type { Database } from "../../db/database";
import { notUnsubscribed } from "../audience";

const memberEmail = sql<string>`lower(m.customer_email)`;

/**
 * The members a post is emailed to, a batch at a time in email order after `after`: one email per
 * person (lower-cased) with a membership of one of the post's tiers that has post emails on and gives
 * access now (the one access rule, hasMembershipAccess), who has not unsubscribed from the seller's
 * emails. `candidates` is how many emails were looked at: fewer than `limit` means none are left.
 */
export async function postRecipientBatch(
  db: Database,
  post: { id: string; seller_id: string },
  after: string | null,
  limit: number,
  now: Date,
): Promise<{ recipients: string[]; candidates: string[] }> {
  const ofThePost = () =>
    db
      .selectFrom("memberships as m")
      .innerJoin("membership_post_tiers as pt", "pt.tier_id", "m.tier_id")
      .where("pt.post_id", "=", post.id)
      .where("m.seller_id", "=", post.seller_id)
      .where("m.post_emails", "=", true)
      .where(notUnsubscribed(post.seller_id, memberEmail));
  let emails = ofThePost().select(memberEmail.as("email")).groupBy(memberEmail);
  if (after !== null) emails = emails.where(memberEmail, ">", after);
  const candidates = (await emails.orderBy(memberEmail).limit(limit).execute()).map((row) => row.email);
  if (candidates.length === 0) return { recipients: [], candidates };
  const memberships = await ofThePost()
    .select([
      memberEmail.as("email"),
      "m.status",
      "m.current_period_end",
      "m.past_due_since",
      "m.access_revoked_at",
    ])
    .where(memberEmail, "in", candidates)
    .execute();
  const withAccess = new Set(
    memberships.filter((membership) => hasMembershipAccess(membership, now)).map((m) => m.email),
  );
  return { recipients: candidates.filter((email) => withAccess.has(email)), candidates };
}
