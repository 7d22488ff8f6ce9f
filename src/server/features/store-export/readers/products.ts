import type { Selectable } from "kysely";
import { type ArchiveProduct, coverPath, productFilePath } from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import type { ProductTable } from "../../../db/schema";
import {
  type ArchiveObject,
  afterTimeId,
  iso,
  isoOrNull,
  keysetPages,
  type PageOptions,
  storeCurrency,
  timeIdKey,
} from "./keyset";

type ProductRow = Selectable<ProductTable>;

/** products.ndjson: each product with its prices, files, cover, tiers (with their prices) and settings; its files' and cover's objects. */
export function readProducts(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: timeIdKey,
      fetch: (after, limit) =>
        afterTimeId(
          db.selectFrom("products").selectAll().where("user_id", "=", sellerId),
          after,
          limit,
        ).execute(),
      keyOf: (row) => [iso(row.created_at), row.id] as [string, string],
      toPage: (rows) => productPage(db, sellerId, rows),
    },
    options,
  );
}

async function productPage(db: Database, sellerId: string, rows: ProductRow[]) {
  const ids = rows.map((row) => row.id);
  const currency = await storeCurrency(db, sellerId);
  const [prices, files, covers, tiers] = await Promise.all([
    otherPricesOf(db, sellerId, ids),
    filesOf(db, sellerId, ids),
    coversOf(db, sellerId, rows),
    tiersOf(db, sellerId, ids, currency),
  ]);
  const objects: ArchiveObject[] = [];
  const records = rows.map((row): ArchiveProduct => {
    const productFiles = files.filter((file) => file.product_id === row.id);
    const cover = row.cover_upload_id ? covers.get(row.cover_upload_id) : undefined;
    const fileRecords = productFiles.map((file) => {
      const path = productFilePath(row.id, file.id, file.display_name);
      objects.push({ path, bucket: "product-files", key: file.storage_key, sizeBytes: file.size_bytes });
      return {
        id: file.id,
        position: file.position,
        name: file.display_name,
        path,
        sizeBytes: file.size_bytes,
        contentType: file.content_type,
        sha256: null,
      };
    });
    const coverRecord = cover
      ? { path: coverPath(row.id, cover.content_type), contentType: cover.content_type }
      : null;
    if (cover && coverRecord) {
      objects.push({ path: coverRecord.path, bucket: "product-covers", key: cover.key, sizeBytes: null });
    }
    return {
      id: row.id,
      kind: row.kind,
      title: row.title,
      description: row.description,
      active: row.is_active,
      currency,
      priceMode: row.price_mode,
      priceCents: row.price_cents,
      suggestedPriceCents: row.suggested_price_cents,
      otherPrices: prices
        .filter((price) => price.product_id === row.id)
        .map((price) => ({ currency: price.currency, priceCents: price.amount_cents })),
      files: fileRecords,
      cover: coverRecord,
      tiers: tiers.filter((tier) => tier.productId === row.id).map(({ productId: _, ...tier }) => tier),
      settings: {
        issueLicenseKeys: row.issue_license_keys,
        stampPdfs: row.stamp_pdfs,
        taxCategory: row.tax_category,
        inventory: { type: row.inventory_type, quantityAvailable: row.quantity_available },
      },
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    };
  });
  return { records, objects };
}

const otherPricesOf = (db: Database, sellerId: string, productIds: string[]) =>
  db
    .selectFrom("product_prices")
    .select(["product_id", "currency", "amount_cents"])
    .where("seller_id", "=", sellerId)
    .where("product_id", "in", productIds)
    .orderBy("product_id")
    .orderBy("currency")
    .execute();

/** The products' files with their checked uploads (the seller's own: uploads carry the seller). */
async function filesOf(db: Database, sellerId: string, productIds: string[]) {
  const rows = await db
    .selectFrom("product_files")
    .innerJoin("uploads", "uploads.id", "product_files.upload_id")
    .select([
      "product_files.id",
      "product_files.product_id",
      "product_files.position",
      "product_files.display_name",
      "uploads.storage_key",
      "uploads.upload_key",
      "uploads.size_bytes",
      "uploads.content_type",
    ])
    .where("uploads.seller_id", "=", sellerId)
    .where("product_files.product_id", "in", productIds)
    .orderBy("product_files.product_id")
    .orderBy("product_files.position")
    .execute();
  return rows.map((row) => ({
    ...row,
    storage_key: row.storage_key ?? row.upload_key,
    size_bytes: Number(row.size_bytes ?? 0),
    content_type: row.content_type ?? "application/octet-stream",
  }));
}

/** Each cover's Open Graph image (1200x630 JPEG), the largest size kept: the uploaded original is not. */
async function coversOf(db: Database, sellerId: string, rows: ProductRow[]) {
  const uploadIds = rows.flatMap((row) => (row.cover_upload_id ? [row.cover_upload_id] : []));
  if (uploadIds.length === 0) return new Map<string, { key: string; content_type: string }>();
  const covers = await db
    .selectFrom("uploads")
    .select(["id", "storage_key", "content_type"])
    .where("seller_id", "=", sellerId)
    .where("id", "in", uploadIds)
    .where("storage_key", "is not", null)
    .execute();
  return new Map(
    covers.map((cover) => [
      cover.id,
      { key: cover.storage_key!, content_type: cover.content_type ?? "image/jpeg" },
    ]),
  );
}

/** The products' tiers with their files and their prices in other currencies (currency order), read for the page at once. */
async function tiersOf(db: Database, sellerId: string, productIds: string[], currency: string) {
  const tiers = await db
    .selectFrom("membership_tiers")
    .selectAll()
    .where("seller_id", "=", sellerId)
    .where("product_id", "in", productIds)
    .orderBy("product_id")
    .orderBy("position")
    .execute();
  if (tiers.length === 0) return [];
  const tierIds = tiers.map((tier) => tier.id);
  const [tierFiles, tierPrices] = await Promise.all([
    db
      .selectFrom("membership_tier_files")
      .select(["tier_id", "product_file_id"])
      .where("tier_id", "in", tierIds)
      .orderBy("tier_id")
      .orderBy("product_file_id")
      .execute(),
    db
      .selectFrom("membership_tier_currency_prices")
      .select(["tier_id", "currency", "monthly_cents", "yearly_cents"])
      .where("seller_id", "=", sellerId)
      .where("tier_id", "in", tierIds)
      .orderBy("tier_id")
      .orderBy("currency")
      .execute(),
  ]);
  return tiers.map((tier) => ({
    productId: tier.product_id,
    id: tier.id,
    position: tier.position,
    name: tier.name,
    description: tier.description,
    currency,
    monthlyPriceCents: tier.monthly_price_cents,
    yearlyPriceCents: tier.yearly_price_cents,
    trialDays: tier.trial_days,
    closed: tier.closed,
    removedAt: isoOrNull(tier.removed_at),
    fileIds: tierFiles.filter((file) => file.tier_id === tier.id).map((file) => file.product_file_id),
    otherPrices: tierPrices
      .filter((price) => price.tier_id === tier.id)
      .map((price) => ({
        currency: price.currency,
        monthlyPriceCents: price.monthly_cents,
        yearlyPriceCents: price.yearly_cents,
      })),
  }));
}
