import type { Database } from "../../db/database";
import { getPublicProduct } from "../products";
import { getStorefront } from "../storefront";
import { nullWhenNotFound } from "./not-found";

/** What a report is about, as its page and its row need it. */
export interface ReportSubject {
  kind: "product" | "store";
  sellerId: string;
  productId: string | null;
  /** The product's title, or the store's name (null: the fallback name). */
  name: string | null;
  seller: { id: string; storeName: string | null; pictureUrl: string | null };
  /** The reported page's path: /product/{id} or /store/{id}. */
  pagePath: string;
}

/**
 * The product or store a visitor may report: one a buyer can see (a public product of a public store,
 * or a public store). Anything else is null, answered with the ordinary 404 page.
 */
export async function findReportSubject(
  db: Database,
  target: { kind: "product" | "store"; id: string },
  now: Date,
): Promise<ReportSubject | null> {
  if (target.kind === "product") {
    const product = await getPublicProduct(db, target.id, now).catch(nullWhenNotFound);
    if (!product) return null;
    return {
      kind: "product",
      sellerId: product.seller.id,
      productId: product.id,
      name: product.title,
      seller: product.seller,
      pagePath: `/product/${product.id}`,
    };
  }
  const store = await getStorefront(db, target.id, now).catch(nullWhenNotFound);
  if (!store) return null;
  return {
    kind: "store",
    sellerId: store.seller.id,
    productId: null,
    name: store.seller.storeName,
    seller: store.seller,
    pagePath: `/store/${store.seller.id}`,
  };
}
