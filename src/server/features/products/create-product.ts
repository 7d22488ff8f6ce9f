import { randomBytes } from "node:crypto";
import type Stripe from "stripe";
import type { z } from "zod";
import { type CreateProductInput, productSchemas } from "../../../contracts/products";
import { commitChange } from "../../adapters/events/commit-change";
import { type EventBus, PUBLIC_PAGES_CHANGED } from "../../adapters/events/event-bus";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { assertCanManageProducts } from "../billing";
import { assertMayAddProducts } from "../enforcement";
import { assertOtherCurrenciesAccepted, storeCurrencyOf } from "../store-currency";
import { writeTiers } from "./membership-tiers";
import { addNewProductFiles, productRows } from "./product-files";
import { writeOtherPrices } from "./product-prices";
import { type ProductRow, toSellerProduct } from "./product-shapes";
import { attachProductUpload, productCoverColumns } from "./product-uploads";

export interface ProductDeps {
  db: Database;
  /** Asked which currencies the seller's account takes, for prices in other currencies. */
  stripe: Stripe;
  storage: Storage;
  /** Product changes are announced to the public pages' caches (commitChange). */
  events: EventBus;
}

/** Short, unguessable, URL-safe: the id in every shared product link. */
const newProductId = () => randomBytes(9).toString("base64url");

/**
 * Creates a live product from checked uploads (its 1 to 20 files and an optional cover), in one
 * transaction: if any upload is not this seller's, not checked, or already used, nothing is created
 * and nothing is attached. An import gives the id (derived from the platform's, so a resumed run finds
 * the product it made); everyone else gets a fresh one.
 */
export async function createProduct(
  deps: ProductDeps,
  sellerId: string,
  body: CreateProductInput,
  now: Date,
  options: { id?: string } = {},
) {
  await assertCanManageProducts(deps.db, sellerId, now);
  await assertMayAddProducts(deps.db, sellerId);
  const { currency } = await storeCurrencyOf(deps.db, sellerId);
  const input = checkedInput(productSchemas(currency).create, body);
  await assertOtherCurrenciesAccepted(deps, sellerId, otherCurrenciesOf(input.prices), now);
  await assertOtherCurrenciesAccepted(deps, sellerId, tierCurrenciesOf(input.tiers), now, "tiers");
  const row: ProductRow = await commitChange(deps, async (trx, announce) => {
    announce(sellerId, PUBLIC_PAGES_CHANGED);
    const cover = input.coverUploadId
      ? await attachProductUpload(trx, sellerId, input.coverUploadId, "product-cover")
      : null;
    const { id } = await trx
      .insertInto("products")
      .values({
        id: options.id ?? newProductId(),
        user_id: sellerId,
        title: input.title,
        description: input.description,
        price_cents: input.priceCents,
        price_mode: input.priceMode,
        suggested_price_cents: input.suggestedPriceCents,
        issue_license_keys: input.issueLicenseKeys,
        stamp_pdfs: input.stampPdfs,
        tax_category: input.taxCategory,
        ...productCoverColumns(deps.storage, cover),
        inventory_type: input.inventoryType,
        quantity_available: input.quantityAvailable,
        kind: input.kind,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await addNewProductFiles(trx, sellerId, id, input.files, now);
    if (input.kind === "membership") await writeTiers(trx, sellerId, id, input.tiers, now);
    await writeOtherPrices(trx, sellerId, id, input.prices);
    return productRows(trx).where("products.id", "=", id).executeTakeFirstOrThrow();
  });
  return toSellerProduct(row);
}

/** The currencies of a product's other prices (absent: none). */
export const otherCurrenciesOf = (prices: readonly { currency: string }[] | undefined): string[] =>
  (prices ?? []).map((price) => price.currency);

/** The currencies its tiers have fixed prices in, each once (absent: none). */
export const tierCurrenciesOf = (
  tiers: readonly { prices: readonly { currency: string }[] }[] | undefined,
): string[] => [...new Set((tiers ?? []).flatMap((tier) => otherCurrenciesOf(tier.prices)))];

/**
 * A body through checks that depend on the seller (the store currency's amounts): refused as the
 * route's own validation is, with the first problem's words.
 */
export function checkedInput<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  throw new AppError(
    "validation_error",
    400,
    issue?.message ?? "Invalid request",
    typeof field === "string" ? { field } : undefined,
  );
}
