import { POST_LIMITS, type PostList, type PostProducts } from "../../../contracts/posts";
import type { Database } from "../../db/database";
import { membershipProductOf } from "./post-product";
import { sellerPostQuery, toSellerPost } from "./post-shapes";

/** A membership product's posts, newest first (drafts too), for its seller. */
export async function listPosts(db: Database, sellerId: string, productId: string): Promise<PostList> {
  const product = await membershipProductOf(db, sellerId, productId);
  const rows = await sellerPostQuery(db)
    .where("p.product_id", "=", product.id)
    .where("p.seller_id", "=", sellerId)
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(POST_LIMITS.sellerListMax)
    .execute();
  return { posts: rows.map(toSellerPost) };
}

/**
 * The seller's membership products, as the Posts section offers them: each with its tiers (removed
 * ones too, kept for their members), its files to attach, and how many posts it has. Three reads.
 */
export async function postProducts(db: Database, sellerId: string): Promise<PostProducts> {
  const products = await db
    .selectFrom("products")
    .select(["id", "title"])
    .select((eb) =>
      eb
        .selectFrom("membership_posts")
        .select((inner) => inner.fn.countAll<string>().as("n"))
        .whereRef("membership_posts.product_id", "=", "products.id")
        .as("post_count"),
    )
    .where("user_id", "=", sellerId)
    .where("kind", "=", "membership")
    .orderBy("created_at", "desc")
    .limit(200)
    .execute();
  if (products.length === 0) return { products: [] };
  const ids = products.map((product) => product.id);
  const [tiers, files] = await Promise.all([
    db
      .selectFrom("membership_tiers")
      .select(["id", "product_id", "name", "removed_at"])
      .where("product_id", "in", ids)
      .where("seller_id", "=", sellerId)
      .orderBy("removed_at", (ob) => ob.desc().nullsFirst())
      .orderBy("position")
      .execute(),
    db
      .selectFrom("product_files")
      .select(["id", "product_id", "display_name"])
      .where("product_id", "in", ids)
      .orderBy("position")
      .execute(),
  ]);
  return {
    products: products.map((product) => ({
      id: product.id,
      title: product.title,
      postCount: Number(product.post_count ?? 0),
      tiers: tiers
        .filter((tier) => tier.product_id === product.id)
        .map((tier) => ({ id: tier.id, name: tier.name, removed: tier.removed_at !== null })),
      files: files
        .filter((file) => file.product_id === product.id)
        .map((file) => ({ id: file.id, name: file.display_name })),
    })),
  };
}
