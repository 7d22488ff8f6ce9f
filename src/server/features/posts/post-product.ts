import { POST_MESSAGES } from "../../../contracts/posts";
import type { Database } from "../../db/database";
import { AppError, notFound } from "../../http/errors";

/**
 * The seller's own membership product a post belongs to: another seller's product (or none) is not
 * found, a product sold once is refused.
 */
export async function membershipProductOf(db: Database, sellerId: string, productId: string) {
  const product = await db
    .selectFrom("products")
    .select(["id", "title", "kind"])
    .where("id", "=", productId)
    .where("user_id", "=", sellerId)
    .executeTakeFirst();
  if (!product) throw notFound(POST_MESSAGES.productNotFound);
  if (product.kind !== "membership")
    throw new AppError("not_a_membership", 400, POST_MESSAGES.notAMembership);
  return product;
}

const refused = (message: string, field: "tierIds" | "fileIds") =>
  new AppError("validation_error", 400, message, { field });

/**
 * A post's tiers and files must be the product's own: its tiers (a removed one too, kept for its
 * members) and its files. Answers them without repeats, in the order given.
 */
export async function checkPostTargets(
  db: Database,
  productId: string,
  tierIds: readonly string[],
  fileIds: readonly string[],
): Promise<{ tierIds: string[]; fileIds: string[] }> {
  const tiers = [...new Set(tierIds)];
  const files = [...new Set(fileIds)];
  if (tiers.length === 0) throw refused(POST_MESSAGES.tiersMissing, "tierIds");
  const [knownTiers, knownFiles] = await Promise.all([
    db
      .selectFrom("membership_tiers")
      .select("id")
      .where("product_id", "=", productId)
      .where("id", "in", tiers)
      .execute(),
    files.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom("product_files")
          .select("id")
          .where("product_id", "=", productId)
          .where("id", "in", files)
          .execute(),
  ]);
  if (knownTiers.length !== tiers.length) throw refused(POST_MESSAGES.unknownTier, "tierIds");
  if (knownFiles.length !== files.length) throw refused(POST_MESSAGES.unknownFile, "fileIds");
  return { tierIds: tiers, fileIds: files };
}
