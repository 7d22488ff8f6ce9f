import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { PURCHASE_RULES } from "../../../../contracts/orders";
import type {
  ArchiveCustomer,
  ArchiveDiscountCode,
  ArchiveInvoice,
  ArchiveLicenseKey,
  ArchiveManifest,
  ArchiveMembership,
  ArchiveOrder,
  ArchivePost,
  ArchiveProduct,
  ArchiveProductDay,
  ArchiveRecordKind,
  ArchiveSourceDay,
  ArchiveStore,
  ArchiveStoreViewDay,
  ArchiveWebhook,
} from "../../../../contracts/store-archive";
import type { ImportResult } from "../../../../contracts/store-import";
import type { BucketName } from "../../../adapters/storage/storage";
import { type Database, inTransaction } from "../../../db/database";
import type { ImportLinkTable } from "../../../db/schema";
import { importedCheckoutId, importedOrderId, importedProductId, importedRecordId } from "../import-ids";
import { linkedIds, recordLink } from "../import-links";
import type { RunImportDeps } from "../run-import";
import { ARCHIVE_PLATFORM } from "./archive-dry-run";
import {
  ARCHIVE_PHASES,
  type ArchiveItem,
  archiveRecords,
  archiveStore,
  hasSales,
  importArchiveFile,
  LIVE_SUBSCRIPTION,
  manifestIndex,
} from "./archive-records";
import { type OpenArchive, withArchive } from "./archive-zip";

const DAY_MS = 24 * 60 * 60_000;
/** Records per transaction (products: one, their files are copied first). */
const BATCH = 200;

type LinkKind = ImportLinkTable["kind"];
/** Kinds of links an archive adds to the platform ones (import_links.kind is free text). */
const kind = (name: string) => name as LinkKind;

/** Where the run is: `phase` 0 is store.json, then ARCHIVE_PHASES in order; `line` the last line done. */
interface ArchiveCursor {
  phase: number;
  line: number;
}

interface RunState {
  deps: RunImportDeps;
  sellerId: string;
  importId: string;
  now: Date;
  storeCurrency: string;
  stripeAccountId: string;
  result: ImportResult;
  archive: OpenArchive;
  manifest: ArchiveManifest;
  /** Few: kept in memory (source id → id here). */
  products: Map<string, string>;
  files: Map<string, string>;
  tiers: Map<string, string>;
  codes: Map<string, string>;
}

const idTaken = async (db: Database, table: "products" | "orders" | "product_files", id: string) =>
  (await db.selectFrom(table).select("id").where("id", "=", id).executeTakeFirst()) !== undefined;

/** The source's id when this instance does not have it yet, else one derived from it (docs/store-import.md). */
async function keptOrDerived(
  db: Database,
  table:
    | "products"
    | "orders"
    | "product_files"
    | "membership_tiers"
    | "discount_codes"
    | "membership_posts"
    | "invoices",
  id: string,
  derived: () => string,
) {
  const taken = await db.selectFrom(table).select("id").where("id", "=", id).executeTakeFirst();
  return taken ? derived() : id;
}

const address = (value: ArchiveOrder["buyer"]["address"]) =>
  value
    ? {
        line1: value.line1,
        line2: value.line2,
        city: value.city,
        state: value.state,
        postal_code: value.postalCode,
        country: value.country,
      }
    : null;
const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
const date = (value: string | null) => (value === null ? null : new Date(value));

/**
 * Runs the import of a Flatfee archive (docs/store-import.md, "Importing a Flatfee archive"): store.json,
 * then each NDJSON file in ARCHIVE_PHASES' order, a batch of records per transaction with the cursor and
 * the links of what it made, so a run cut short resumes after its last batch and a second import of the
 * same archive finds every record linked. Files are copied from the archive (checked against the
 * manifest's SHA-256 as they pass) before the transaction that records them.
 */
export async function runArchiveImport(deps: RunImportDeps, importId: string, now: Date): Promise<void> {
  const row = await deps.db
    .selectFrom("store_imports")
    .select(["seller_id", "cursor", "result"])
    .where("id", "=", importId)
    .where("status", "=", "importing")
    .executeTakeFirst();
  if (!row) return;
  const sellerId = row.seller_id;
  const cursor = (row.cursor as ArchiveCursor | null) ?? null;
  const result: ImportResult = {
    products: 0,
    orders: 0,
    licenseKeys: 0,
    unsubscribes: 0,
    resubscribes: 0,
    skipped: 0,
    alreadyImported: 0,
    buyersEmailed: 0,
    ...((row.result as ImportResult | null) ?? {}),
  };
  const file = await importArchiveFile(deps.db, importId);
  await withArchive(deps.storage, file, async (archive, manifest) => {
    const profile = await deps.db
      .selectFrom("profiles")
      .select(["stripe_connect_account_id"])
      .where("id", "=", sellerId)
      .executeTakeFirst();
    const links = (name: string) => linkedIds(deps.db, sellerId, ARCHIVE_PLATFORM, kind(name));
    const state: RunState = {
      deps,
      sellerId,
      importId,
      now,
      storeCurrency: "",
      stripeAccountId: profile?.stripe_connect_account_id ?? "imported",
      result,
      archive,
      manifest,
      products: await links("product"),
      files: await links("product_file"),
      tiers: await links("tier"),
      codes: await links("discount_code"),
    };
    let done = 0;
    const save = (trx: Database, at: ArchiveCursor) =>
      trx
        .updateTable("store_imports")
        .set({ cursor: JSON.stringify(at), progress_done: done, result: JSON.stringify(result) })
        .where("id", "=", importId)
        .execute();

    const store = await archiveStore(archive, manifest);
    if (!cursor) {
      await restoreStore(state, store);
      await inTransaction(deps.db, (trx) => save(trx, { phase: 0, line: 0 }));
    }
    state.storeCurrency =
      (
        await deps.db
          .selectFrom("profiles")
          .select("store_currency")
          .where("id", "=", sellerId)
          .executeTakeFirst()
      )?.store_currency ?? store.currency;

    for (const [index, phase] of ARCHIVE_PHASES.entries()) {
      const phaseNumber = index + 1;
      let batch: ArchiveItem<ArchiveRecordKind>[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const items = batch;
        batch = [];
        const prepared = phase === "products" ? await copyProductObjects(state, items) : undefined;
        await inTransaction(deps.db, async (trx) => {
          await applyBatch(trx, state, phase, items, prepared);
          await save(trx, { phase: phaseNumber, line: items[items.length - 1]!.line });
        });
      };
      for await (const item of archiveRecords(archive, manifest, phase, state.storeCurrency)) {
        done++;
        if (
          cursor &&
          (phaseNumber < cursor.phase || (phaseNumber === cursor.phase && item.line <= cursor.line))
        )
          continue;
        if (item.problem !== undefined) {
          result.skipped++;
          continue;
        }
        batch.push(item);
        if (batch.length >= (phase === "products" ? 1 : BATCH)) await flush();
      }
      await flush();
    }
  });
  await deps.db
    .updateTable("store_imports")
    .set({ result: JSON.stringify(result) })
    .where("id", "=", importId)
    .execute();
}

/** store.json: the store's texts, settings, picture, tax and invoice numbering (continuing the archive's). */
async function restoreStore(state: RunState, store: ArchiveStore) {
  const { db, storage } = state.deps;
  const { sellerId, now } = state;
  let picture: { uploadId: string; key: string; sizeBytes: number } | undefined;
  if (store.picture) {
    const uploadId = importedRecordId("picture", sellerId, ARCHIVE_PLATFORM, store.id);
    const key = `${sellerId}/profile-${uploadId}.webp`;
    const { sizeBytes } = await copyEntry(
      state,
      store.picture.path,
      "product-covers",
      key,
      store.picture.contentType,
    );
    picture = { uploadId, key, sizeBytes };
  }
  const sold = await hasSales(db, sellerId);
  await inTransaction(db, async (trx) => {
    if (picture && store.picture)
      await trx
        .insertInto("uploads")
        .values(
          uploadRow(
            state,
            picture.uploadId,
            "profile-picture",
            "product-covers",
            picture.key,
            picture.sizeBytes,
            store.picture.contentType,
            "picture",
          ),
        )
        .onConflict((conflict) => conflict.doNothing())
        .execute();
    await trx
      .updateTable("profiles")
      .set({
        store_name: store.name,
        store_tagline: store.tagline,
        store_description: store.description,
        adaptive_pricing: store.adaptivePricing,
        checkout_recovery_emails: store.checkoutRecoveryEmails,
        ...(sold ? {} : { store_currency: store.currency }),
        ...(picture
          ? {
              profile_picture_upload_id: picture.uploadId,
              profile_picture_url: storage.publicUrl(picture.key),
            }
          : {}),
        updated_at: now,
      })
      .where("id", "=", sellerId)
      .execute();
    if (store.tax) {
      const tax = {
        collect_tax: store.tax.collectTax,
        tax_behavior: store.tax.taxBehavior,
        head_office_country: store.tax.headOfficeCountry,
        legal_name: store.tax.legalName,
        legal_address: store.tax.legalAddress,
        tax_id: store.tax.taxId,
        invoice_prefix: store.tax.invoicePrefix,
        waiver_outside_eu: store.tax.waiverOutsideEu,
        updated_at: now,
      };
      await trx
        .insertInto("store_tax_settings")
        .values({
          seller_id: sellerId,
          stripe_tax_status: null,
          stripe_tax_missing_fields: JSON.stringify([]),
          ...tax,
        })
        .onConflict((conflict) => conflict.column("seller_id").doUpdateSet(tax))
        .execute();
    }
    for (const [sequence, last] of [
      ["invoice", store.invoiceNumbers.lastInvoice],
      ["credit_note", store.invoiceNumbers.lastCreditNote],
    ] as const) {
      if (last === 0) continue;
      await trx
        .insertInto("invoice_sequences")
        .values({ seller_id: sellerId, kind: sequence, last_number: last })
        .onConflict((conflict) =>
          conflict
            .columns(["seller_id", "kind"])
            .doUpdateSet({ last_number: sql`greatest(invoice_sequences.last_number, ${last})` }),
        )
        .execute();
    }
  });
}

function uploadRow(
  state: RunState,
  id: string,
  purpose: "product-file" | "product-cover" | "profile-picture",
  bucket: BucketName,
  key: string,
  sizeBytes: number,
  contentType: string,
  name: string,
) {
  return {
    id,
    seller_id: state.sellerId,
    purpose,
    status: "attached" as const,
    original_name: name,
    declared_size_bytes: sizeBytes,
    declared_type: contentType,
    upload_key: key,
    bucket: bucket as "product-files" | "product-covers",
    storage_key: key,
    thumbnail_key: null,
    source_key: null,
    cover_variants: null,
    size_bytes: sizeBytes,
    content_type: contentType,
    expires_at: state.now,
    created_at: state.now,
    completed_at: state.now,
  };
}

/** Copies one archive entry into storage, checked against the manifest as it passes (a mismatch stores nothing). */
async function copyEntry(
  state: RunState,
  path: string,
  bucket: BucketName,
  key: string,
  contentType: string,
) {
  const stream = await state.archive.verifiedStream(path, manifestIndex(state.manifest).get(path));
  return state.deps.storage.write(bucket, key, stream, { contentType });
}

const extensionOf = (name: string) => {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return match ? `.${match[1]!.toLowerCase()}` : "";
};
const objectName = (...parts: string[]) =>
  createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 24);

interface PreparedProduct {
  productId: string;
  files: {
    source: ArchiveProduct["files"][number];
    fileId: string;
    uploadId: string;
    key: string;
    sizeBytes: number;
  }[];
  cover: { uploadId: string; key: string; sizeBytes: number; contentType: string } | null;
}

/** A product's files and cover, copied into storage before the transaction records them (keys derived: a retry overwrites). */
async function copyProductObjects(state: RunState, items: ArchiveItem<ArchiveRecordKind>[]) {
  const prepared = new Map<string, PreparedProduct>();
  const { db } = state.deps;
  for (const item of items) {
    const product = item.record as ArchiveProduct;
    if (state.products.has(product.id)) continue;
    const productId = (await idTaken(db, "products", product.id))
      ? importedProductId(state.sellerId, ARCHIVE_PLATFORM, product.id)
      : product.id;
    const files: PreparedProduct["files"] = [];
    for (const source of product.files) {
      const uploadId = importedRecordId(
        "upload",
        state.sellerId,
        ARCHIVE_PLATFORM,
        `${product.id}/${source.id}`,
      );
      const key = `${state.sellerId}/archive-${objectName(uploadId)}${extensionOf(source.name)}`;
      const { sizeBytes } = await copyEntry(state, source.path, "product-files", key, source.contentType);
      const fileId = (await idTaken(db, "product_files", source.id))
        ? importedRecordId("file", state.sellerId, ARCHIVE_PLATFORM, `${product.id}/${source.id}`)
        : source.id;
      files.push({ source, fileId, uploadId, key, sizeBytes });
    }
    let cover: PreparedProduct["cover"] = null;
    if (product.cover) {
      const uploadId = importedRecordId("cover", state.sellerId, ARCHIVE_PLATFORM, product.id);
      const key = `${state.sellerId}/archive-${objectName(uploadId)}${extensionOf(product.cover.path)}`;
      const { sizeBytes } = await copyEntry(
        state,
        product.cover.path,
        "product-covers",
        key,
        product.cover.contentType,
      );
      cover = { uploadId, key, sizeBytes, contentType: product.cover.contentType };
    }
    prepared.set(product.id, { productId, files, cover });
  }
  return prepared;
}

async function applyBatch(
  trx: Database,
  state: RunState,
  phase: (typeof ARCHIVE_PHASES)[number],
  items: ArchiveItem<ArchiveRecordKind>[],
  prepared: Map<string, PreparedProduct> | undefined,
) {
  const records = items.map((item) => item.record);
  switch (phase) {
    case "products":
      for (const record of records) await applyProduct(trx, state, record as ArchiveProduct, prepared!);
      return;
    case "discount-codes":
      for (const record of records) await applyCode(trx, state, record as ArchiveDiscountCode);
      return;
    case "customers":
      for (const record of records) await applyCustomer(trx, state, record as ArchiveCustomer);
      return;
    case "orders": {
      const orders = await batchLinks(
        trx,
        state,
        "order",
        records.map((record) => (record as ArchiveOrder).id),
      );
      for (const record of records) await applyOrder(trx, state, record as ArchiveOrder, orders);
      return;
    }
    case "license-keys": {
      const keys = records as ArchiveLicenseKey[];
      const orders = await batchLinks(
        trx,
        state,
        "order",
        keys.map((key) => key.orderId),
      );
      const done = await batchLinks(
        trx,
        state,
        "license_key",
        keys.map((key) => key.orderId),
      );
      for (const key of keys) await applyKey(trx, state, key, orders, done);
      return;
    }
    case "memberships":
      for (const record of records) await applyMembership(trx, state, record as ArchiveMembership);
      return;
    case "posts":
      for (const record of records) await applyPost(trx, state, record as ArchivePost);
      return;
    case "invoices": {
      const invoices = records as ArchiveInvoice[];
      const orders = await batchLinks(
        trx,
        state,
        "order",
        invoices.map((invoice) => invoice.orderId),
      );
      for (const invoice of invoices) await applyInvoice(trx, state, invoice, orders);
      return;
    }
    case "webhooks":
      for (const record of records) await applyWebhook(trx, state, record as ArchiveWebhook);
      return;
    case "analytics-product-days":
    case "analytics-source-days":
      for (const record of records) await applyProductDay(trx, state, record as ArchiveSourceDay, phase);
      return;
    case "analytics-store-view-days":
      for (const record of records) {
        const day = record as ArchiveStoreViewDay;
        await trx
          .insertInto("store_view_days")
          .values({ store_owner_id: state.sellerId, day: day.day, views: day.views })
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      }
      return;
  }
}

const batchLinks = (trx: Database, state: RunState, name: string, ids: string[]) =>
  linkedIds(trx, state.sellerId, ARCHIVE_PLATFORM, kind(name), [...new Set(ids)]);

const link = (trx: Database, state: RunState, name: string, externalId: string, localId: string) =>
  recordLink(trx, {
    sellerId: state.sellerId,
    platform: ARCHIVE_PLATFORM,
    kind: kind(name),
    externalId,
    localId,
    importId: state.importId,
  });

async function applyProduct(
  trx: Database,
  state: RunState,
  product: ArchiveProduct,
  prepared: Map<string, PreparedProduct>,
) {
  const made = prepared.get(product.id);
  if (state.products.has(product.id) || !made) {
    state.result.alreadyImported++;
    return;
  }
  const { productId, files, cover } = made;
  for (const file of files)
    await trx
      .insertInto("uploads")
      .values(
        uploadRow(
          state,
          file.uploadId,
          "product-file",
          "product-files",
          file.key,
          file.sizeBytes,
          file.source.contentType,
          file.source.name,
        ),
      )
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  if (cover)
    await trx
      .insertInto("uploads")
      .values(
        uploadRow(
          state,
          cover.uploadId,
          "product-cover",
          "product-covers",
          cover.key,
          cover.sizeBytes,
          cover.contentType,
          "cover",
        ),
      )
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  const { storage } = state.deps;
  await trx
    .insertInto("products")
    .values({
      id: productId,
      user_id: state.sellerId,
      kind: product.kind,
      title: product.title,
      description: product.description,
      is_active: product.active,
      price_cents: product.priceCents,
      price_mode: product.priceMode,
      suggested_price_cents: product.suggestedPriceCents,
      issue_license_keys: product.settings.issueLicenseKeys,
      stamp_pdfs: product.settings.stampPdfs,
      tax_category: product.settings.taxCategory,
      inventory_type: product.settings.inventory.type,
      quantity_available: product.settings.inventory.quantityAvailable,
      cover_upload_id: cover?.uploadId ?? null,
      cover_image_url: cover ? storage.publicUrl(cover.key) : null,
      cover_thumbnail_url: null,
      cover_variants: null,
      created_at: new Date(product.createdAt),
      updated_at: new Date(product.updatedAt),
    })
    .execute();
  for (const file of files) {
    await trx
      .insertInto("product_files")
      .values({
        id: file.fileId,
        product_id: productId,
        upload_id: file.uploadId,
        position: file.source.position,
        display_name: file.source.name,
        created_at: new Date(product.createdAt),
        updated_at: new Date(product.updatedAt),
      })
      .execute();
    state.files.set(file.source.id, file.fileId);
    await link(trx, state, "product_file", file.source.id, file.fileId);
  }
  for (const price of product.otherPrices)
    await trx
      .insertInto("product_prices")
      .values({
        product_id: productId,
        seller_id: state.sellerId,
        currency: price.currency,
        amount_cents: price.priceCents,
      })
      .execute();
  for (const tier of product.tiers) {
    const tierId = await keptOrDerived(trx, "membership_tiers", tier.id, () =>
      importedRecordId("tier", state.sellerId, ARCHIVE_PLATFORM, tier.id),
    );
    await trx
      .insertInto("membership_tiers")
      .values({
        id: tierId,
        product_id: productId,
        seller_id: state.sellerId,
        position: tier.position,
        name: tier.name,
        description: tier.description,
        monthly_price_cents: tier.monthlyPriceCents,
        yearly_price_cents: tier.yearlyPriceCents,
        trial_days: tier.trialDays,
        closed: tier.closed,
        removed_at: date(tier.removedAt),
        created_at: new Date(product.createdAt),
        updated_at: new Date(product.updatedAt),
      })
      .execute();
    if (tier.otherPrices.length > 0)
      await trx
        .insertInto("membership_tier_currency_prices")
        .values(
          tier.otherPrices.map((price) => ({
            tier_id: tierId,
            seller_id: state.sellerId,
            currency: price.currency,
            monthly_cents: price.monthlyPriceCents,
            yearly_cents: price.yearlyPriceCents,
          })),
        )
        .execute();
    for (const fileId of tier.fileIds) {
      const local = state.files.get(fileId);
      if (local)
        await trx
          .insertInto("membership_tier_files")
          .values({ tier_id: tierId, product_file_id: local })
          .execute();
    }
    state.tiers.set(tier.id, tierId);
    await link(trx, state, "tier", tier.id, tierId);
  }
  await link(trx, state, "product", product.id, productId);
  state.products.set(product.id, productId);
  state.result.products++;
}

async function applyCode(trx: Database, state: RunState, code: ArchiveDiscountCode) {
  if (state.codes.has(code.id)) {
    state.result.alreadyImported++;
    return;
  }
  const clash = await trx
    .selectFrom("discount_codes")
    .select("id")
    .where("seller_id", "=", state.sellerId)
    .where("code", "=", code.code)
    .executeTakeFirst();
  if (clash) {
    // The store already has a code of that name: it stays as it is.
    state.result.skipped++;
    return;
  }
  const id = await keptOrDerived(trx, "discount_codes", code.id, () =>
    importedRecordId("code", state.sellerId, ARCHIVE_PLATFORM, code.id),
  );
  await trx
    .insertInto("discount_codes")
    .values({
      id,
      seller_id: state.sellerId,
      code: code.code,
      kind: code.kind,
      value: code.value,
      currency: code.currency,
      all_products: code.allProducts,
      starts_at: date(code.startsAt),
      ends_at: date(code.endsAt),
      max_uses: code.maxUses,
      uses_used: code.usesUsed,
      paused: code.paused,
      membership_duration: code.membershipDuration,
      created_at: new Date(code.createdAt),
      updated_at: new Date(code.updatedAt),
    })
    .execute();
  for (const productId of code.productIds) {
    const local = state.products.get(productId);
    if (local)
      await trx
        .insertInto("discount_code_products")
        .values({ discount_code_id: id, product_id: local })
        .execute();
  }
  state.codes.set(code.id, id);
  await link(trx, state, "discount_code", code.id, id);
}

/** Consent moves with the store; the purchase roll-ups come from the orders (OrderChanges.imported). */
async function applyCustomer(trx: Database, state: RunState, customer: ArchiveCustomer) {
  const email = customer.email.toLowerCase();
  const linked = await batchLinks(trx, state, "customer", [email]);
  if (linked.has(email)) {
    state.result.alreadyImported++;
    return;
  }
  if (customer.unsubscribed) {
    await trx
      .insertInto("email_unsubscribes")
      .values({ seller_id: state.sellerId, email, created_at: date(customer.unsubscribedAt) ?? state.now })
      .onConflict((conflict) => conflict.columns(["seller_id", "email"]).doNothing())
      .execute();
    state.result.unsubscribes++;
  }
  await link(trx, state, "customer", email, email);
}

async function applyOrder(trx: Database, state: RunState, order: ArchiveOrder, linked: Map<string, string>) {
  if (linked.has(order.id)) {
    state.result.alreadyImported++;
    return;
  }
  const productId = order.productId === null ? null : (state.products.get(order.productId) ?? null);
  if (order.productId !== null && productId === null) {
    state.result.skipped++;
    return;
  }
  const orderId = (await idTaken(trx, "orders", order.id))
    ? importedOrderId(state.sellerId, ARCHIVE_PLATFORM, order.id)
    : order.id;
  const checkoutId = importedCheckoutId(state.sellerId, ARCHIVE_PLATFORM, order.id);
  const createdAt = new Date(order.createdAt);
  const discountCents = order.discount?.discountCents ?? 0;
  await trx
    .insertInto("checkouts")
    .values({
      id: checkoutId,
      stripe_session_id: checkoutId,
      stripe_account_id: state.stripeAccountId,
      seller_id: state.sellerId,
      product_id: productId,
      reservation: "none",
      state: "paid",
      network_hash: null,
      visitor_hash: null,
      expires_at: createdAt,
      created_at: createdAt,
      discount_code_id: null,
      code_hold_ends_at: null,
      discount_code: order.discount?.code ?? null,
      original_price_cents: order.amountCents + discountCents,
      discount_cents: discountCents,
      currency: order.currency,
    })
    .execute();
  const refunded = order.status === "refunded";
  await trx
    .insertInto("orders")
    .values({
      id: orderId,
      stripe_session_id: checkoutId,
      stripe_account_id: state.stripeAccountId,
      payment_intent_id: null,
      seller_id: state.sellerId,
      product_id: productId,
      product_title: order.productTitle,
      customer_email: order.buyer.email.toLowerCase(),
      amount_cents: order.amountCents,
      currency: order.currency,
      settlement_cents: order.settlementCents,
      settlement_currency: order.settlementCurrency,
      status: order.status,
      refunded_at: date(order.refundedAt),
      download_window_ends_at: new Date(state.now.getTime() + PURCHASE_RULES.downloadWindowDays * DAY_MS),
      created_at: createdAt,
      discount_code_id: order.discount?.codeId ? (state.codes.get(order.discount.codeId) ?? null) : null,
      discount_code: order.discount?.code ?? null,
      discount_cents: discountCents,
      // A membership's payment keeps its period; memberships themselves do not move (docs/store-import.md).
      membership_id: null,
      period_start: date(order.periodStart),
      period_end: date(order.periodEnd),
      tax_cents: order.tax.taxCents,
      tax_behavior: order.tax.behavior,
      tax_rate: order.tax.rate,
      tax_type: order.tax.type,
      tax_jurisdiction: order.tax.jurisdiction,
      taxability_reason: order.tax.taxabilityReason,
      reverse_charge: order.tax.reverseCharge,
      buyer_name: order.buyer.name,
      buyer_address: json(address(order.buyer.address)),
      buyer_country: order.buyer.country,
      buyer_state: order.buyer.state,
      buyer_business_name: order.buyer.businessName,
      buyer_tax_id: order.buyer.taxId,
      buyer_tax_id_check: json(order.buyer.taxIdCheck),
      buyer_locale: order.buyer.locale as never,
      withdrawal_waiver: order.withdrawalWaiver?.text ?? null,
      withdrawal_waiver_at: date(order.withdrawalWaiver?.acceptedAt ?? null),
      dispute_id: order.dispute?.id ?? null,
      dispute_status: order.dispute?.status ?? null,
      imported_from: ARCHIVE_PLATFORM,
    })
    .execute();
  // The steps that give an order its place (totals, customers, stamped copies), none that speak of a new
  // sale; what the store counts is the settlement, as on the source (a refunded order counts nothing).
  const counted = {
    orderId,
    sellerId: state.sellerId,
    productId,
    email: order.buyer.email.toLowerCase(),
    amountCents: order.settlementCurrency === state.storeCurrency ? order.settlementCents : 0,
    at: createdAt,
  };
  await state.deps.orderChanges.imported(trx, [{ ...counted, checkoutId, delivered: !refunded }]);
  // A dispute lost on the source took the sale back there; the same here (docs/disputes.md).
  if (!refunded && order.dispute?.status === "lost") await state.deps.orderChanges.disputeLost(trx, counted);
  await link(trx, state, "order", order.id, orderId);
  linked.set(order.id, orderId);
  state.result.orders++;
}

/** The key as the source had it (uses, last verified, disabled), replacing any the import step issued. */
async function applyKey(
  trx: Database,
  state: RunState,
  key: ArchiveLicenseKey,
  orders: Map<string, string>,
  done: Map<string, string>,
) {
  if (done.has(key.orderId)) {
    state.result.alreadyImported++;
    return;
  }
  const orderId = orders.get(key.orderId);
  const productId = state.products.get(key.productId);
  if (!orderId || !productId) {
    state.result.skipped++;
    return;
  }
  const values = {
    key: key.key,
    product_id: productId,
    uses: key.uses,
    last_verified_at: date(key.lastVerifiedAt),
    disabled_at: date(key.disabledAt),
    created_at: new Date(key.createdAt),
  };
  await trx
    .insertInto("license_keys")
    .values({ order_id: orderId, seller_id: state.sellerId, ...values })
    .onConflict((conflict) => conflict.column("order_id").doUpdateSet(values))
    .execute();
  await link(trx, state, "license_key", key.orderId, orderId);
  state.result.licenseKeys++;
}

/**
 * A membership is a Stripe subscription on the source's connected account, renewed by Stripe's events
 * there: it cannot run here. Live ones are listed to be re-subscribed, like a platform's.
 */
async function applyMembership(trx: Database, state: RunState, membership: ArchiveMembership) {
  if (!LIVE_SUBSCRIPTION.has(membership.status)) return;
  const inserted = await trx
    .insertInto("store_import_resubscribes")
    .values({
      seller_id: state.sellerId,
      platform: ARCHIVE_PLATFORM,
      external_id: membership.id,
      import_id: state.importId,
      email: membership.customerEmail.toLowerCase(),
      product_title: membership.productTitle,
      status: membership.status,
      amount_cents: membership.amountCents,
      currency: membership.currency,
      billing_interval: membership.billingInterval,
      current_period_end: new Date(membership.currentPeriodEnd),
    })
    .onConflict((conflict) => conflict.columns(["seller_id", "platform", "external_id"]).doNothing())
    .returning("external_id")
    .executeTakeFirst();
  if (inserted) state.result.resubscribes++;
  else state.result.alreadyImported++;
}

async function applyPost(trx: Database, state: RunState, post: ArchivePost) {
  const linked = await batchLinks(trx, state, "post", [post.id]);
  const productId = state.products.get(post.productId);
  if (linked.has(post.id)) {
    state.result.alreadyImported++;
    return;
  }
  if (!productId) {
    state.result.skipped++;
    return;
  }
  const id = await keptOrDerived(trx, "membership_posts", post.id, () =>
    importedRecordId("post", state.sellerId, ARCHIVE_PLATFORM, post.id),
  );
  await trx
    .insertInto("membership_posts")
    .values({
      id,
      seller_id: state.sellerId,
      product_id: productId,
      title: post.title,
      body: post.body,
      published_at: date(post.publishedAt),
      emails_status: post.emails.status,
      emails_last_email: null,
      emails_count: post.emails.count,
      created_at: new Date(post.createdAt),
      updated_at: new Date(post.updatedAt),
    })
    .execute();
  for (const tierId of post.tierIds) {
    const local = state.tiers.get(tierId);
    if (local)
      await trx.insertInto("membership_post_tiers").values({ post_id: id, tier_id: local }).execute();
  }
  for (const file of post.files) {
    const local = state.files.get(file.fileId);
    if (local)
      await trx
        .insertInto("membership_post_files")
        .values({ post_id: id, product_file_id: local, position: file.position })
        .execute();
  }
  await link(trx, state, "post", post.id, id);
}

const party = (value: ArchiveInvoice["seller"]) =>
  JSON.stringify({ ...value, postalAddress: address(value.postalAddress) });

/** Invoices are immutable snapshots: each version comes back as it was, with its number. */
async function applyInvoice(
  trx: Database,
  state: RunState,
  invoice: ArchiveInvoice,
  orders: Map<string, string>,
) {
  const linked = await batchLinks(trx, state, "invoice", [
    invoice.id,
    ...(invoice.creditedInvoiceId ? [invoice.creditedInvoiceId] : []),
  ]);
  if (linked.has(invoice.id)) {
    state.result.alreadyImported++;
    return;
  }
  const orderId = orders.get(invoice.orderId);
  const taken = await trx
    .selectFrom("invoices")
    .select("id")
    .where("seller_id", "=", state.sellerId)
    .where("kind", "=", invoice.kind)
    .where("number", "=", invoice.number)
    .where("version", "=", invoice.version)
    .executeTakeFirst();
  if (!orderId || taken) {
    state.result.skipped++;
    return;
  }
  const id = await keptOrDerived(trx, "invoices", invoice.id, () =>
    importedRecordId("invoice", state.sellerId, ARCHIVE_PLATFORM, invoice.id),
  );
  await trx
    .insertInto("invoices")
    .values({
      id,
      seller_id: state.sellerId,
      order_id: orderId,
      kind: invoice.kind,
      number: invoice.number,
      number_text: invoice.numberText,
      version: invoice.version,
      issued_at: new Date(invoice.issuedAt),
      paid_at: new Date(invoice.paidAt),
      created_at: new Date(invoice.createdAt),
      credited_invoice_id: invoice.creditedInvoiceId ? (linked.get(invoice.creditedInvoiceId) ?? null) : null,
      seller: party(invoice.seller),
      buyer: party(invoice.buyer),
      lines: JSON.stringify(invoice.lines),
      currency: invoice.currency,
      subtotal_cents: invoice.subtotalCents,
      tax_cents: invoice.taxCents,
      total_cents: invoice.totalCents,
      reverse_charge: invoice.reverseCharge,
      withdrawal_waiver: invoice.withdrawalWaiver?.text ?? null,
      withdrawal_waiver_at: date(invoice.withdrawalWaiver?.acceptedAt ?? null),
    })
    .execute();
  await link(trx, state, "invoice", invoice.id, id);
}

/** A webhook's address and events, with a NEW signing secret (the archive never holds one). */
async function applyWebhook(trx: Database, state: RunState, webhook: ArchiveWebhook) {
  const linked = await batchLinks(trx, state, "webhook", [webhook.id]);
  if (linked.has(webhook.id)) {
    state.result.alreadyImported++;
    return;
  }
  const id = `whep_${randomBytes(10).toString("base64url")}`;
  await trx
    .insertInto("webhook_endpoints")
    .values({
      id,
      seller_id: state.sellerId,
      url: webhook.url,
      events: webhook.events,
      // The Standard Webhooks format the webhooks room makes (seller-webhooks/signature.ts).
      secret: `whsec_${randomBytes(32).toString("base64")}`,
      created_at: new Date(webhook.createdAt),
    })
    .execute();
  await link(trx, state, "webhook", webhook.id, id);
}

async function applyProductDay(
  trx: Database,
  state: RunState,
  day: ArchiveProductDay & Partial<ArchiveSourceDay>,
  phase: "analytics-product-days" | "analytics-source-days",
) {
  const productId = state.products.get(day.productId);
  if (!productId) {
    state.result.skipped++;
    return;
  }
  const counts = {
    seller_id: state.sellerId,
    day: day.day,
    product_id: productId,
    views: day.views,
    units: day.units,
    revenue_cents: day.revenueCents,
    recovered_units: day.recoveredUnits,
    recovered_cents: day.recoveredCents,
  };
  if (phase === "analytics-product-days")
    await trx
      .insertInto("analytics_product_days")
      .values(counts)
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  else
    await trx
      .insertInto("analytics_source_days")
      .values({
        ...counts,
        referrer_host: day.referrerHost ?? "",
        utm_source: day.utmSource ?? "",
        utm_medium: day.utmMedium ?? "",
        utm_campaign: day.utmCampaign ?? "",
      })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
}
