import type { Database } from "../../db/database";
import { planAccess } from "../billing";

/** A sitemap may list at most 50,000 URLs (sitemaps.org); past that a sitemap index would be needed. */
export const SITEMAP_MAX_URLS = 50_000;

/**
 * /sitemap.xml: the landing page, then every public store and its active products, each with when it
 * last changed. Stores are public by the rule their pages apply (plan-standing.ts via
 * seller-visibility.ts); an account that never subscribed has none. One query, at most
 * SITEMAP_MAX_URLS rows read, so the answer is bounded however big the platform gets.
 */
export async function sitemapXml(db: Database, appUrl: string, now: Date): Promise<string> {
  const rows = await db
    .selectFrom("profiles")
    .innerJoin("subscriptions", "subscriptions.user_id", "profiles.id")
    .leftJoin("products", (join) =>
      join
        .onRef("products.user_id", "=", "profiles.id")
        .on("products.is_active", "=", true)
        // A product an operator took down is unavailable: not listed (docs/operator.md).
        .on(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("enforcement_actions")
                .select("enforcement_actions.id")
                .whereRef("enforcement_actions.product_id", "=", "products.id")
                .where("enforcement_actions.lifted_at", "is", null)
                .where("enforcement_actions.kind", "=", "take-down"),
            ),
          ),
        ),
    )
    // Nor is a suspended store.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("enforcement_actions")
            .select("enforcement_actions.id")
            .whereRef("enforcement_actions.seller_id", "=", "profiles.id")
            .where("enforcement_actions.lifted_at", "is", null)
            .where("enforcement_actions.kind", "=", "suspend"),
        ),
      ),
    )
    .select([
      "profiles.id as sellerId",
      "profiles.updated_at as storeUpdatedAt",
      "subscriptions.status",
      "subscriptions.past_due_since",
      "subscriptions.canceled_at",
      "products.id as productId",
      "products.updated_at as productUpdatedAt",
    ])
    .orderBy("profiles.id")
    .orderBy("products.updated_at", "desc")
    .limit(SITEMAP_MAX_URLS)
    .execute();

  const stores = new Map<string, Date>();
  const products: Array<{ id: string; lastModified: Date }> = [];
  for (const row of rows) {
    if (!planAccess(row, now).pagesPublic) continue;
    // A store page shows its products, so it changed when the newest of them did.
    const storeChanged = latest(stores.get(row.sellerId) ?? row.storeUpdatedAt, row.productUpdatedAt);
    stores.set(row.sellerId, storeChanged);
    if (row.productId && row.productUpdatedAt) {
      products.push({ id: row.productId, lastModified: row.productUpdatedAt });
    }
  }
  const urls = [
    `  <url><loc>${escapeXml(`${appUrl}/`)}</loc></url>`,
    ...[...stores].map(([sellerId, lastModified]) => urlEntry(`${appUrl}/store/${sellerId}`, lastModified)),
    ...products.map((product) => urlEntry(`${appUrl}/product/${product.id}`, product.lastModified)),
  ].slice(0, SITEMAP_MAX_URLS);
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.join("\n")}
</urlset>
`;
}

const latest = (a: Date, b: Date | null) => (b && b > a ? b : a);

const urlEntry = (loc: string, lastModified: Date) =>
  `  <url><loc>${escapeXml(loc)}</loc><lastmod>${lastModified.toISOString()}</lastmod></url>`;

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
