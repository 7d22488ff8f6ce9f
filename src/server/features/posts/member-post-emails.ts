import { sql } from "kysely";
import { MEMBERSHIP_MESSAGES } from "../../../contracts/memberships";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";

/**
 * A member's "Email me new posts": on or off for one membership, by the holder of the member's library
 * link (the email it was signed for). Another email's membership answers 404, like a missing one. Off,
 * the member still reads the posts in their library; the seller's unsubscribe link stops every email of
 * the seller's, post emails included.
 */
export async function setPostEmails(
  db: Database,
  membershipId: string,
  email: string,
  enabled: boolean,
): Promise<{ postEmails: boolean }> {
  const updated = await db
    .updateTable("memberships")
    .set({ post_emails: enabled })
    .where("id", "=", membershipId)
    .where(sql<string>`lower(customer_email)`, "=", email.toLowerCase())
    .returning("post_emails")
    .executeTakeFirst();
  if (!updated) throw new AppError("not_a_member", 404, MEMBERSHIP_MESSAGES.membershipNotFound);
  return { postEmails: updated.post_emails };
}
