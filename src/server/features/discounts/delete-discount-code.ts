import { DISCOUNT_MESSAGES } from "../../../contracts/discounts";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";

/**
 * Deletes a code. Its orders keep the code's text and the amount saved; a checkout still open with it
 * keeps its price, and its held use goes with the code.
 */
export async function deleteDiscountCode(db: Database, sellerId: string, codeId: string): Promise<void> {
  const deleted = await db
    .deleteFrom("discount_codes")
    .where("id", "=", codeId)
    .where("seller_id", "=", sellerId)
    .returning("id")
    .executeTakeFirst();
  if (!deleted) throw notFound(DISCOUNT_MESSAGES.notFound);
}
