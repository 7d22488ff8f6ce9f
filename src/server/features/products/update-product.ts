import type { Selectable, Updateable } from "kysely";
import { lowestMonthlyCents, MEMBERSHIP_MESSAGES } from "../../../contracts/memberships";
import {
  PRODUCT_LIMITS,
  PRODUCT_MESSAGES,
  type ProductChanges,
  productSchemas,
  quantityBelowTakenMessage,
  type SellerProductDetail,
  type UpdateProductInput,
} from "../../../contracts/products";
import { commitChange } from "../../adapters/events/commit-change";
import { PUBLIC_PAGES_CHANGED } from "../../adapters/events/event-bus";
import type { ProductTable } from "../../db/schema";
import { AppError, notFound } from "../../http/errors";
import { assertCanManageProducts } from "../billing";
import { assertOtherCurrenciesAccepted, storeCurrencyOf } from "../store-currency";
import { deleteObjectsOf, deleteSellerUploadRow, type UploadRow } from "../uploads";
import { checkedInput, otherCurrenciesOf, type ProductDeps, tierCurrenciesOf } from "./create-product";
import { writeTiers } from "./membership-tiers";
import { listProductFiles, productRows, replaceProductFiles } from "./product-files";
import { writeOtherPrices } from "./product-prices";
import { toSellerProductDetail, type UnitsTaken } from "./product-shapes";
import { attachProductUpload, productCoverColumns } from "./product-uploads";
import { unitsTaken } from "./seller-product";

export type UpdateProductDeps = ProductDeps;

/**
 * A seller edits their own product (another seller's answers 404). Everything happens in one
 * transaction, so a refusal changes nothing and attaches no upload; after it commits the public pages
 * are told, then the bytes of a replaced file or cover are deleted.
 *
 * - Price: checkouts copy the price when they are made (create-checkout.ts) and orders record what
 *   Stripe charged, so a new price applies to new checkouts only.
 * - Pay what you want: a flexible price's minimum and suggestion change with it (a minimum sent alone
 *   must stay at or below the suggestion); checkouts copy the amount the buyer chose.
 * - Stock: `quantity` is the total a limited product sells, units already taken included; what is
 *   left for sale is that total minus the units taken (sold or held). The product row is locked
 *   first: a checkout taking or giving back a unit updates that row too (stock.ts), so it either
 *   committed before the units are counted or sees the new stock after; nothing oversells.
 *   (A checkout opened while the product was unlimited took no unit, and takes none when paid.)
 * - Files: `files` is the whole list in its new order (product-files.ts): rename, reorder, add, replace,
 *   remove, at least one. Downloads always list and serve the product's current files, so past buyers
 *   get added and replaced files at once and a removed one disappears for everyone; the bytes of a
 *   removed or replaced file are deleted after commit. A one-minute download link minted just before
 *   may then fail; the buyer starts the download again.
 * - Cover: replaced by a new checked upload, or removed (`coverUploadId: null`).
 */
export async function updateProduct(
  deps: UpdateProductDeps,
  sellerId: string,
  productId: string,
  body: UpdateProductInput,
  now: Date,
): Promise<SellerProductDetail> {
  await assertCanManageProducts(deps.db, sellerId, now);
  const { currency } = await storeCurrencyOf(deps.db, sellerId);
  const changes = checkedInput(productSchemas(currency).update, body);
  await assertOtherCurrenciesAccepted(deps, sellerId, otherCurrenciesOf(changes.prices), now);
  await assertOtherCurrenciesAccepted(deps, sellerId, tierCurrenciesOf(changes.tiers), now, "tiers");
  const { row, taken, replaced, files } = await commitChange(deps, async (trx, announce) => {
    announce(sellerId, PUBLIC_PAGES_CHANGED);
    const current = await trx
      .selectFrom("products")
      .selectAll()
      .where("id", "=", productId)
      .where("user_id", "=", sellerId)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw notFound(PRODUCT_MESSAGES.notFound);
    const taken = await unitsTaken(trx, productId);
    if (current.kind === "membership") assertMembershipEdit(changes);
    const values: Updateable<ProductTable> = {
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.issueLicenseKeys !== undefined ? { issue_license_keys: changes.issueLicenseKeys } : {}),
      ...(changes.stampPdfs !== undefined ? { stamp_pdfs: changes.stampPdfs } : {}),
      ...(changes.taxCategory !== undefined ? { tax_category: changes.taxCategory } : {}),
      ...pricingColumns(current, changes),
      ...(changes.inventory ? stockColumns(changes.inventory, taken) : {}),
      updated_at: now,
    };
    const replacedUploadIds: string[] = [];
    const replaced: UploadRow[] = changes.files
      ? await replaceProductFiles(trx, sellerId, productId, changes.files, now)
      : [];
    if (changes.tiers) {
      if (current.kind !== "membership") {
        throw new AppError("validation_error", 400, MEMBERSHIP_MESSAGES.notAMembership, { field: "tiers" });
      }
      // After the files: a tier may list a file added in this same edit.
      await writeTiers(trx, sellerId, productId, changes.tiers, now);
      values.price_cents = lowestMonthlyCents(changes.tiers);
    }
    if (changes.prices) await writeOtherPrices(trx, sellerId, productId, changes.prices);
    if (changes.coverUploadId !== undefined) {
      const cover = changes.coverUploadId
        ? await attachProductUpload(trx, sellerId, changes.coverUploadId, "product-cover")
        : null;
      Object.assign(values, productCoverColumns(deps.storage, cover));
      if (current.cover_upload_id) replacedUploadIds.push(current.cover_upload_id);
    }
    await trx.updateTable("products").set(values).where("id", "=", productId).execute();
    const row = await productRows(trx).where("products.id", "=", productId).executeTakeFirstOrThrow();
    const files = await listProductFiles(trx, productId);
    // The rows go with the change; their bytes only once it is committed (at worst an orphan object).
    for (const uploadId of replacedUploadIds) {
      const upload = await deleteSellerUploadRow(trx, sellerId, uploadId);
      if (upload) replaced.push(upload);
    }
    return { row, taken, replaced, files };
  });
  for (const upload of replaced) await deleteObjectsOf(deps.storage, upload);
  return toSellerProductDetail(row, taken, files);
}

/**
 * The price columns of an edit: the whole pricing when the mode was sent (checked by the schema), or a
 * new price alone, which for a flexible price is its minimum and may not pass the suggestion.
 */
function pricingColumns(
  current: Pick<Selectable<ProductTable>, "price_mode" | "suggested_price_cents">,
  changes: ProductChanges,
): Pick<Updateable<ProductTable>, "price_cents" | "price_mode" | "suggested_price_cents"> {
  if (changes.priceCents === undefined) return {};
  if (changes.pricing) {
    return {
      price_cents: changes.priceCents,
      price_mode: changes.pricing.mode,
      suggested_price_cents: changes.pricing.suggestedPriceCents,
    };
  }
  if (current.price_mode === "flexible") {
    if (changes.priceCents > PRODUCT_LIMITS.maxFlexiblePriceCents)
      throw priceFieldError(PRODUCT_MESSAGES.minimumTooHigh);
    if (changes.priceCents > (current.suggested_price_cents ?? 0))
      throw priceFieldError(PRODUCT_MESSAGES.suggestedTooLow);
  }
  return { price_cents: changes.priceCents };
}

const priceFieldError = (message: string) =>
  new AppError("validation_error", 400, message, { field: "price" });

/** The stock columns for a new inventory: a limited total can't go below the units already taken. */
function stockColumns(
  inventory: NonNullable<ProductChanges["inventory"]>,
  taken: UnitsTaken,
): Pick<Updateable<ProductTable>, "inventory_type" | "quantity_available"> {
  if (inventory.inventoryType === "unlimited") {
    return { inventory_type: "unlimited", quantity_available: null };
  }
  const left = inventory.quantity - taken.sold - taken.held;
  if (left < 0) {
    throw new AppError("quantity_below_taken", 409, quantityBelowTakenMessage(taken.sold, taken.held), {
      field: "quantityAvailable",
      minimum: taken.sold + taken.held,
    });
  }
  return { inventory_type: "limited", quantity_available: left };
}

/**
 * A membership is priced by its tiers and never limited (product rules, "Memberships"): a price, pay
 * what you want, stock or license keys sent for one are refused rather than half applied.
 */
function assertMembershipEdit(changes: ProductChanges): void {
  if (changes.pricing?.mode === "flexible") {
    throw new AppError("validation_error", 400, MEMBERSHIP_MESSAGES.noPayWhatYouWant, { field: "priceMode" });
  }
  if (changes.priceCents !== undefined || changes.inventory?.inventoryType === "limited") {
    throw new AppError("validation_error", 400, MEMBERSHIP_MESSAGES.kindFixed, { field: "tiers" });
  }
  if (changes.issueLicenseKeys) {
    throw new AppError("validation_error", 400, MEMBERSHIP_MESSAGES.kindFixed, { field: "issueLicenseKeys" });
  }
}
