import { offeredCurrency } from "../../../contracts/currencies";
import type { EmbedProduct } from "../../../contracts/embed";
import type { Locale } from "../../../contracts/i18n/locales";
import { type Translator, translator } from "../../../contracts/i18n/translator";
import { localPriceLabel, stockNotice } from "../../../web/server-rendered";
import type { Database } from "../../db/database";
import { findPublicSeller, type PublicSeller } from "../billing";
import { productInCurrency, productRows, toPublicProduct } from "../products";

/** Who the buttons are for: the language and currency the visitor's browser asks for (docs/embed.md). */
export interface EmbedBuyer {
  locale: Locale;
  /** A currency the product may have a fixed price in (http/buyer-currency.ts); else the store's. */
  currency?: string | undefined;
}

const missing = (id: string, i18n: Translator): EmbedProduct => ({
  id,
  status: "missing",
  title: null,
  priceCents: null,
  priceMode: null,
  currency: null,
  priceLabel: null,
  stockLabel: null,
  statusLabel: i18n.t("embed.status.missing"),
});

/** What a button says under its price: the stock left, or why it can't be bought (in the buyer's language). */
function notes(
  i18n: Translator,
  status: EmbedProduct["status"],
  product: Parameters<typeof stockNotice>[0],
): Pick<EmbedProduct, "stockLabel" | "statusLabel"> {
  if (status === "soldOut")
    return { stockLabel: i18n.t("purchase.soldOut"), statusLabel: i18n.t("purchase.soldOut") };
  const left =
    stockNotice(product) === null
      ? null
      : i18n.t("purchase.stockLeft", { count: product.quantityAvailable ?? 0 });
  return {
    stockLabel: left,
    statusLabel: status === "unavailable" ? i18n.t("embed.status.unavailable") : null,
  };
}

/**
 * What the Buy buttons of a page show, one entry per id in the order asked: the same rules as the
 * product page (getPublicProduct), read in one query for the products and one per seller (a page
 * usually embeds one creator's products). Priced as the product page prices it for this buyer: in
 * their currency when the product has a fixed price there, written in their language.
 */
export async function getEmbedProducts(
  db: Database,
  ids: string[],
  now: Date,
  buyer: EmbedBuyer,
): Promise<EmbedProduct[]> {
  if (ids.length === 0) return [];
  const i18n = translator(buyer.locale);
  const rows = await productRows(db)
    .where("products.id", "in", ids)
    .where("products.is_active", "=", true)
    // A product an operator took down is missing here, as its page is unavailable (docs/operator.md).
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("enforcement_actions")
            .select("enforcement_actions.id")
            .whereRef("enforcement_actions.product_id", "=", "products.id")
            .where("enforcement_actions.lifted_at", "is", null)
            .where("enforcement_actions.kind", "=", "take-down"),
        ),
      ),
    )
    .execute();
  const sellers = new Map<string, PublicSeller | undefined>();
  for (const sellerId of new Set(rows.map((row) => row.user_id))) {
    sellers.set(sellerId, await findPublicSeller(db, sellerId, now));
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    const seller = row ? sellers.get(row.user_id) : undefined;
    if (!row || !seller?.pagesPublic) return missing(id, i18n);
    // As getPublicProduct: a product a buyer gets for $0 needs the plan only, not Stripe.
    const stored = toPublicProduct(row, seller.canSell || (row.price_cents === 0 && seller.planAllowsSales));
    const product = productInCurrency(stored, offeredCurrency(stored, buyer.currency));
    const status = product.soldOut ? "soldOut" : product.purchasable ? "available" : "unavailable";
    return {
      id,
      status,
      title: product.title,
      priceCents: product.priceCents,
      priceMode: product.priceMode,
      currency: product.currency,
      priceLabel: localPriceLabel(i18n, product),
      ...notes(i18n, status, product),
    };
  });
}
