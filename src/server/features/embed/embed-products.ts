import type { EmbedProduct } from "../../../contracts/embed";
import { PURCHASE_UNAVAILABLE, priceLabel } from "../../../contracts/products";
import { stockNotice } from "../../../web/server-rendered";
import type { Database } from "../../db/database";
import { findPublicSeller, type PublicSeller } from "../billing";
import { productRows, toPublicProduct } from "../products";

const missing = (id: string): EmbedProduct => ({
  id,
  status: "missing",
  title: null,
  priceCents: null,
  priceMode: null,
  priceLabel: null,
  stockLabel: null,
});

/**
 * What the Buy buttons of a page show, one entry per id in the order asked: the same rules as the
 * product page (getPublicProduct), read in one query for the products and one per seller (a page
 * usually embeds one creator's products).
 */
export async function getEmbedProducts(db: Database, ids: string[], now: Date): Promise<EmbedProduct[]> {
  if (ids.length === 0) return [];
  const rows = await productRows(db)
    .where("products.id", "in", ids)
    .where("products.is_active", "=", true)
    .execute();
  const sellers = new Map<string, PublicSeller | undefined>();
  for (const sellerId of new Set(rows.map((row) => row.user_id))) {
    sellers.set(sellerId, await findPublicSeller(db, sellerId, now));
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    const seller = row ? sellers.get(row.user_id) : undefined;
    if (!row || !seller?.pagesPublic) return missing(id);
    // As getPublicProduct: a product a buyer gets for $0 needs the plan only, not Stripe.
    const product = toPublicProduct(row, seller.canSell || (row.price_cents === 0 && seller.planAllowsSales));
    return {
      id,
      status: product.soldOut ? "soldOut" : product.purchasable ? "available" : "unavailable",
      title: product.title,
      priceCents: product.priceCents,
      priceMode: product.priceMode,
      priceLabel: priceLabel(product),
      stockLabel: product.soldOut ? PURCHASE_UNAVAILABLE.soldOut : stockNotice(product),
    };
  });
}
