import { sql } from "kysely";
import { minorToDecimal } from "../../../contracts/money";
import type { ImportResult } from "../../../contracts/store-import";
import { type Database, inTransaction } from "../../db/database";
import { storedLicenseKey } from "../licenses";
import type { OrderChanges } from "../order-lifecycle";
import { createProduct, type ProductDeps } from "../products";
import { storeCurrencyOf } from "../store-currency";
import { productPlan } from "./dry-run";
import { runArchiveImport } from "./flatfee-archive/archive-run";
import { importedProductId } from "./import-ids";
import { attachedProductFiles, linkedIds, recordLink, recordLinks } from "./import-links";
import type { ImportedLicenseKey, ImportedOrder, ImportedProduct, ImportItem } from "./import-records";
import { createImportedOrders, type ImportingStore, writeImportedKey } from "./imported-order";
import { type ItemPosition, importItems, isAfter } from "./read-import";

export interface RunImportDeps extends ProductDeps {
  orderChanges: OrderChanges;
}

/** Records written per transaction: the run commits (and records where it is) after each batch. */
export const RUN_BATCH_SIZE = 200;

const emptyResult = (): ImportResult => ({
  products: 0,
  orders: 0,
  licenseKeys: 0,
  unsubscribes: 0,
  resubscribes: 0,
  skipped: 0,
  alreadyImported: 0,
  buyersEmailed: 0,
});

/**
 * Runs a checked import (docs/store-import.md, "The run"): first its products (each created like any
 * product, with the files the creator attached), then every other record in batches, each batch one
 * transaction that also moves the import's cursor and progress. A run cut short (a crash, a deploy)
 * starts again at the cursor; every record is looked up by its platform id first, so nothing is made twice.
 */
export async function runImport(deps: RunImportDeps, importId: string, now: Date): Promise<void> {
  const row = await deps.db
    .selectFrom("store_imports")
    .select(["seller_id", "platform", "cursor", "result"])
    .where("id", "=", importId)
    .where("status", "=", "importing")
    .executeTakeFirst();
  if (!row) return;
  // A Flatfee archive holds every kind of record and the files: its own run (flatfee-archive/).
  if (row.platform === "flatfee") return runArchiveImport(deps, importId, now);
  const store = await importingStore(deps.db, row.seller_id, row.platform);
  const result = { ...emptyResult(), ...((row.result as ImportResult | null) ?? {}) };
  const cursor = (row.cursor as ItemPosition | null) ?? null;

  // Products first (few: kept in memory), so every order finds its product whatever the files' order.
  if (!cursor) await importProducts(deps, store, importId, result, now);
  const products = await linkedIds(deps.db, store.sellerId, store.platform, "product");

  let batch: { position: ItemPosition; item: ImportItem }[] = [];
  let done = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const last = batch[batch.length - 1]!.position;
    const items = batch;
    batch = [];
    await inTransaction(deps.db, async (trx) => {
      const links = {
        products,
        ...(await batchLinks(
          trx,
          store,
          items.map((entry) => entry.item),
        )),
      };
      await importOrders(trx, deps, store, importId, links, items, result, now);
      for (const { item } of items) await importRecord(trx, store, importId, links, item, result, now);
      await trx
        .updateTable("store_imports")
        .set({ cursor: JSON.stringify(last), progress_done: done, result: JSON.stringify(result) })
        .where("id", "=", importId)
        .execute();
    });
  };
  for await (const entry of importItems(deps, importId)) {
    if (entry.item.kind === "notice" || entry.item.kind === "problem") continue;
    done++;
    if (!isAfter(entry.position, cursor)) continue;
    batch.push(entry);
    if (batch.length >= RUN_BATCH_SIZE) await flush();
  }
  await flush();
  // Keys come with orders and in lists of their own (with use counts): counted once each, at the end.
  result.licenseKeys = await importedKeyCount(deps.db, importId);
  await deps.db
    .updateTable("store_imports")
    .set({ result: JSON.stringify(result) })
    .where("id", "=", importId)
    .execute();
}

async function importedKeyCount(db: Database, importId: string): Promise<number> {
  const row = await db
    .selectFrom("import_links")
    .innerJoin("license_keys", "license_keys.order_id", "import_links.local_id")
    .select(sql<number>`count(*)::int`.as("count"))
    .where("import_links.import_id", "=", importId)
    .where("import_links.kind", "=", "order")
    .executeTakeFirstOrThrow();
  return row.count;
}

async function importingStore(db: Database, sellerId: string, platform: string): Promise<ImportingStore> {
  const { currency } = await storeCurrencyOf(db, sellerId);
  const profile = await db
    .selectFrom("profiles")
    .select("stripe_connect_account_id")
    .where("id", "=", sellerId)
    .executeTakeFirst();
  return {
    sellerId,
    platform,
    storeCurrency: currency,
    stripeAccountId: profile?.stripe_connect_account_id ?? null,
  };
}

/** Every product the dry run said is new, created with its attached files; the others are left as the report said. */
async function importProducts(
  deps: RunImportDeps,
  store: ImportingStore,
  importId: string,
  result: ImportResult,
  now: Date,
): Promise<void> {
  const links = await linkedIds(deps.db, store.sellerId, store.platform, "product");
  const attached = await attachedProductFiles(deps.db, importId);
  const seen = new Set<string>();
  for await (const { item } of importItems(deps, importId)) {
    if (item.kind !== "product" || seen.has(item.externalId)) continue;
    seen.add(item.externalId);
    const plan = productPlan(item, links, attached, store.storeCurrency);
    if (plan.status === "imported") result.alreadyImported++;
    if (plan.status !== "new") {
      if (plan.status !== "imported") result.skipped++;
      continue;
    }
    const productId = await createImportedProduct(deps, store, item, plan.files, now);
    await recordLink(deps.db, {
      sellerId: store.sellerId,
      platform: store.platform,
      kind: "product",
      externalId: item.externalId,
      localId: productId,
      importId,
    });
    links.set(item.externalId, productId);
    result.products++;
  }
}

/** The product through the products room's own creation, at the id derived from the platform's. */
async function createImportedProduct(
  deps: RunImportDeps,
  store: ImportingStore,
  product: ImportedProduct,
  files: { uploadId: string }[],
  now: Date,
): Promise<string> {
  const id = importedProductId(store.sellerId, store.platform, product.externalId);
  const existing = await deps.db.selectFrom("products").select("id").where("id", "=", id).executeTakeFirst();
  if (existing) return id;
  const price = minorToDecimal(product.priceCents, product.currency);
  const common = {
    title: product.title.slice(0, 200),
    description: product.description,
    files: files.map((file) => ({ uploadId: file.uploadId })),
  };
  const body =
    product.productKind === "membership"
      ? { ...common, kind: "membership" as const, tiers: [{ name: "Members", monthlyPrice: price }] }
      : {
          ...common,
          price,
          priceMode: product.priceMode,
          suggestedPrice:
            product.suggestedPriceCents === null
              ? null
              : minorToDecimal(product.suggestedPriceCents, product.currency),
          inventoryType: "unlimited" as const,
          issueLicenseKeys: product.issueLicenseKeys,
        };
  await createProduct(deps, store.sellerId, body, now, { id });
  return id;
}

/**
 * The imported order a key belongs to: the one its export names; for lists that name the key's product
 * but not its order (Payhip's verify responses), the imported order of that product that holds the key;
 * else (Polar's key list names only the buyer, Payhip's too) that buyer's latest imported order, of that
 * product when named, of a product that issues keys, with no key of its own yet.
 */
async function keyTarget(
  trx: Database,
  store: ImportingStore,
  links: BatchLinks,
  key: ImportedLicenseKey,
): Promise<{ orderId: string; productId: string } | undefined> {
  if (key.orderExternalId) {
    const orderId = links.orders.get(key.orderExternalId);
    const productId = links.products.get(key.productExternalId);
    return orderId && productId ? { orderId, productId } : undefined;
  }
  const productId = key.productExternalId ? links.products.get(key.productExternalId) : undefined;
  if (key.productExternalId && !productId) return undefined;
  const stored = storedLicenseKey(key.key);
  if (productId && stored) {
    const holder = await trx
      .selectFrom("license_keys")
      .innerJoin("orders", "orders.id", "license_keys.order_id")
      .select("license_keys.order_id")
      .where("license_keys.product_id", "=", productId)
      .where("license_keys.key", "=", stored)
      .where("orders.seller_id", "=", store.sellerId)
      .where("orders.imported_from", "=", store.platform)
      .executeTakeFirst();
    if (holder) return { orderId: holder.order_id, productId };
  }
  if (!key.buyerEmail) return undefined;
  let byBuyer = trx
    .selectFrom("orders")
    .innerJoin("products", "products.id", "orders.product_id")
    .leftJoin("license_keys", "license_keys.order_id", "orders.id")
    .select(["orders.id", "orders.product_id"])
    .where("orders.seller_id", "=", store.sellerId)
    .where("orders.imported_from", "=", store.platform)
    .where("orders.customer_email", "=", key.buyerEmail.toLowerCase())
    .where("orders.status", "=", "completed")
    .where("products.issue_license_keys", "=", true)
    .where((eb) => eb.or([eb("license_keys.order_id", "is", null), eb("license_keys.key", "=", key.key)]));
  if (productId) byBuyer = byBuyer.where("orders.product_id", "=", productId);
  const order = await byBuyer.orderBy("orders.created_at", "desc").executeTakeFirst();
  return order?.product_id ? { orderId: order.id, productId: order.product_id } : undefined;
}

/** What earlier runs (and this batch) made of the records a batch names: one query per kind per batch. */
interface BatchLinks {
  products: Map<string, string>;
  orders: Map<string, string>;
  customers: Map<string, string>;
}

async function batchLinks(trx: Database, store: ImportingStore, items: ImportItem[]) {
  const orderIds = new Set<string>();
  const emails = new Set<string>();
  for (const item of items) {
    if (item.kind === "order") orderIds.add(item.externalId);
    if (item.kind === "license_key" && item.orderExternalId) orderIds.add(item.orderExternalId);
    if (item.kind === "customer") emails.add(item.email.toLowerCase());
  }
  return {
    orders: await linkedIds(trx, store.sellerId, store.platform, "order", [...orderIds]),
    customers: await linkedIds(trx, store.sellerId, store.platform, "customer", [...emails]),
  };
}

/**
 * A batch's orders, first: those whose product is here and that no earlier run made, created together
 * (createImportedOrders), so the batch's keys find them.
 */
async function importOrders(
  trx: Database,
  deps: RunImportDeps,
  store: ImportingStore,
  importId: string,
  links: BatchLinks,
  items: readonly { item: ImportItem }[],
  result: ImportResult,
  now: Date,
): Promise<void> {
  const fresh = new Map<string, { order: ImportedOrder; productId: string }>();
  for (const { item } of items) {
    if (item.kind !== "order") continue;
    const productId = links.products.get(item.productExternalId);
    if (!productId) result.skipped++;
    else if (links.orders.has(item.externalId) || fresh.has(item.externalId)) result.alreadyImported++;
    else fresh.set(item.externalId, { order: item, productId });
  }
  const created = await createImportedOrders(trx, deps.orderChanges, store, [...fresh.values()], now);
  await recordLinks(
    trx,
    { sellerId: store.sellerId, platform: store.platform, kind: "order", importId },
    created,
  );
  for (const [externalId, orderId] of created) links.orders.set(externalId, orderId);
  result.orders += created.size;
}

/** One record of the run, in the batch's transaction. Each kind is looked up first and made at most once. */
async function importRecord(
  trx: Database,
  store: ImportingStore,
  importId: string,
  links: BatchLinks,
  item: ImportItem,
  result: ImportResult,
  now: Date,
): Promise<void> {
  const link = { sellerId: store.sellerId, platform: store.platform, importId };
  switch (item.kind) {
    case "order":
    case "product":
      return;
    case "license_key": {
      const target = await keyTarget(trx, store, links, item);
      if (!target) {
        result.skipped++;
        return;
      }
      const { orderId, productId } = target;
      const written = await writeImportedKey(
        trx,
        store.sellerId,
        orderId,
        productId,
        item.key,
        item.uses,
        item.disabled,
        now,
      );
      if (!written) result.skipped++;
      return;
    }
    case "customer": {
      const email = item.email.toLowerCase();
      // A buyer is in several files (sales and audience): their consent is taken once.
      if (links.customers.has(email)) return;
      links.customers.set(email, email);
      if (item.marketing === "unsubscribed") {
        await trx
          .insertInto("email_unsubscribes")
          .values({ seller_id: store.sellerId, email })
          .onConflict((conflict) => conflict.columns(["seller_id", "email"]).doNothing())
          .execute();
        result.unsubscribes++;
      }
      await recordLink(trx, { ...link, kind: "customer", externalId: email, localId: email });
      return;
    }
    case "subscription": {
      const inserted = await trx
        .insertInto("store_import_resubscribes")
        .values({
          seller_id: store.sellerId,
          platform: store.platform,
          external_id: item.externalId,
          import_id: importId,
          email: item.email.toLowerCase(),
          product_title: item.productTitle,
          status: item.status,
          amount_cents: item.amountCents,
          currency: item.currency,
          billing_interval: item.interval,
          current_period_end: item.currentPeriodEnd ? new Date(item.currentPeriodEnd) : null,
        })
        .onConflict((conflict) => conflict.columns(["seller_id", "platform", "external_id"]).doNothing())
        .returning("external_id")
        .executeTakeFirst();
      if (inserted) result.resubscribes++;
      else result.alreadyImported++;
      return;
    }
  }
}
