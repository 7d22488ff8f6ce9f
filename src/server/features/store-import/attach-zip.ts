import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { sql } from "kysely";
import { PRODUCT_FILE_LIMITS } from "../../../contracts/product-files";
import {
  type ImportedProductPlan,
  type ImportReport,
  PRODUCT_ZIP_MESSAGES,
  type ProductZipResult,
  STORE_IMPORT_LIMITS,
  STORE_IMPORT_MESSAGES,
} from "../../../contracts/store-import";
import { STORAGE_QUOTA_BYTES, UPLOAD_MESSAGES } from "../../../contracts/uploads";
import { ObjectTooLargeError, type Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { assertCanManageProducts } from "../billing";
import {
  deleteStoredFile,
  productFileProblem,
  storageUsedQuery,
  storeStreamedProductFile,
  sweepLater,
  sweepNow,
  type VirusScanner,
} from "../uploads";
import { attachableImport } from "./import-view";
import { ProductZip, type ZipFileEntry, ZipRefused } from "./product-zip";

export interface ProductZipDeps {
  db: Database;
  storage: Storage;
  virusScanner?: VirusScanner;
  now: () => Date;
}

/** Which products a ZIP is for: one (every file is its), or all (a folder per product). */
export type ZipTarget = { product: string } | "all";

/** How long an uploaded ZIP may sit in storage if the process stops while unpacking it. */
const ZIP_SWEEP_AFTER_MS = 24 * 60 * 60_000;

/**
 * A ZIP of products' files, uploaded to an import (docs/store-import.md, "Files per product"). The body
 * streams to storage as an export file does; the ZIP is then read entry by entry (product-zip.ts) and
 * each file is stored as the same checked product-file upload the page's single upload makes
 * (storeStreamedProductFile: name, size, quota, content, virus scan), then attached after the product's
 * files. Done in the request, like a single file's checks: the answer says what was attached.
 * All or nothing: a refused ZIP, or any file of it refused, deletes every upload made from it, and the
 * ZIP itself goes whatever happens.
 */
export async function attachZip(
  deps: ProductZipDeps,
  sellerId: string,
  importId: string,
  target: ZipTarget,
  zipName: string,
  body: Readable,
): Promise<Omit<ProductZipResult, "import">> {
  const now = deps.now();
  const report = await attachableImport(deps.db, sellerId, importId);
  if (target !== "all" && !report.products.some((product) => product.externalId === target.product))
    throw new AppError("not_found", 404, STORE_IMPORT_MESSAGES.unknownProduct);
  // Product files are for products: the plan and payouts an upload link asks for.
  await assertCanManageProducts(deps.db, sellerId, now);

  const key = `imports/${sellerId}/${importId}/zip-${randomBytes(8).toString("hex")}.zip`;
  await sweepLater(deps.db, key, new Date(now.getTime() + ZIP_SWEEP_AFTER_MS));
  try {
    let sizeBytes: number;
    try {
      ({ sizeBytes } = await deps.storage.write("product-files", key, body, {
        maxBytes: STORE_IMPORT_LIMITS.maxZipBytes,
      }));
    } catch (error) {
      if (error instanceof ObjectTooLargeError)
        throw new AppError("file_too_large", 400, PRODUCT_ZIP_MESSAGES.tooLarge(zipName));
      throw error;
    }
    const zip = await ProductZip.open(deps.storage, key, sizeBytes, zipName);
    try {
      return await unpack(deps, sellerId, importId, report, target, zip);
    } finally {
      zip.close();
    }
  } finally {
    await sweepNow(deps.db, deps.storage, key);
  }
}

interface Plan {
  byProduct: Map<string, { product: ImportedProductPlan; files: ZipFileEntry[] }>;
  skippedFolders: ProductZipResult["skippedFolders"];
  looseFiles: string[];
}

async function unpack(
  deps: ProductZipDeps,
  sellerId: string,
  importId: string,
  report: ImportReport,
  target: ZipTarget,
  zip: ProductZip,
): Promise<Omit<ProductZipResult, "import">> {
  const { files, systemFiles } = await zip.files();
  if (files.length === 0) throw new ZipRefused("zip_no_files", PRODUCT_ZIP_MESSAGES.noFiles(zip.zipName));
  const plan = target === "all" ? planByFolder(report, files) : planForProduct(report, target.product, files);
  if (plan.byProduct.size === 0)
    throw new ZipRefused(
      "zip_no_product_folders",
      PRODUCT_ZIP_MESSAGES.noProductFolders(
        zip.zipName,
        plan.skippedFolders.map((skipped) => skipped.folder),
      ),
    );
  const kept = [...plan.byProduct.values()].flatMap((entry) => entry.files);
  await checkBeforeWriting(deps.db, sellerId, importId, zip.zipName, plan, kept);

  // Each file stored as a checked upload; the first refusal takes back every one stored before it.
  const stored = new Map<ZipFileEntry, { uploadId: string; name: string; sizeBytes: number }>();
  try {
    for (const file of kept) {
      const upload = await storeEntry(deps, sellerId, zip, file);
      stored.set(file, { uploadId: upload.uploadId, name: upload.originalName, sizeBytes: upload.sizeBytes });
    }
    const attached = [...plan.byProduct.values()].map(({ product, files: ofProduct }) => ({
      externalId: product.externalId,
      title: product.title,
      files: ofProduct.map((file) => stored.get(file)!),
    }));
    await appendAttached(deps.db, sellerId, importId, zip.zipName, attached);
    return { attached, skippedFolders: plan.skippedFolders, looseFiles: plan.looseFiles, systemFiles };
  } catch (error) {
    for (const { uploadId } of stored.values())
      await deleteStoredFile(deps, sellerId, uploadId).catch(() => {});
    throw error;
  }
}

/** One entry, streamed into a product-file upload; a refusal of it names the ZIP and the entry. */
async function storeEntry(deps: ProductZipDeps, sellerId: string, zip: ProductZip, file: ZipFileEntry) {
  try {
    const body = await zip.entryStream(file);
    return await storeStreamedProductFile(
      deps,
      sellerId,
      { name: file.name, sizeBytes: file.sizeBytes, body },
      deps.now(),
    );
  } catch (error) {
    if (error instanceof ZipRefused) throw error;
    if (error instanceof AppError && error.status === 400)
      throw new AppError(
        error.code,
        400,
        PRODUCT_ZIP_MESSAGES.entryRefused(zip.zipName, file.path, error.userMessage),
      );
    throw error;
  }
}

/** Every file of a ZIP for one product is that product's, whatever folder it sits in. */
function planForProduct(report: ImportReport, externalId: string, files: ZipFileEntry[]): Plan {
  const product = report.products.find((candidate) => candidate.externalId === externalId)!;
  return { byProduct: new Map([[externalId, { product, files }]]), skippedFolders: [], looseFiles: [] };
}

/** A name without case, spaces or punctuation: "Lightroom Presets: Pro" and "lightroom-presets pro" agree. */
const loose = (name: string) =>
  name
    .normalize("NFKC")
    .toLocaleLowerCase("en")
    .replace(/[\p{P}\p{S}\p{Z}\s]+/gu, "");

/** The products a top-level folder is named after: by id (exactly, then in any case), else by name. */
function productsNamed(report: ImportReport, folder: string): ImportedProductPlan[] {
  const byId = report.products.filter((product) => product.externalId === folder);
  if (byId.length > 0) return byId;
  const byIdAnyCase = report.products.filter(
    (product) => product.externalId.toLocaleLowerCase("en") === folder.toLocaleLowerCase("en"),
  );
  if (byIdAnyCase.length === 1) return byIdAnyCase;
  const wanted = loose(folder);
  if (wanted === "") return [];
  return report.products.filter((product) => loose(product.title) === wanted);
}

/** Why a product's folder is left out: the products a run makes are those still to create. */
function notTakingFiles(product: ImportedProductPlan): string | null {
  if (product.status === "imported") return `${product.title} was imported already.`;
  if (product.status === "other-currency")
    return `${product.title} is priced in ${product.currency.toUpperCase()}, which your store does not sell in: it is not imported.`;
  return null;
}

/**
 * A ZIP for all products: each top-level folder goes to the product it is named after (its name as the
 * dry run shows it, or its id); folders of no product (or of several, or of one not imported) and files
 * outside any folder are left out and listed.
 */
function planByFolder(report: ImportReport, files: ZipFileEntry[]): Plan {
  const plan: Plan = { byProduct: new Map(), skippedFolders: [], looseFiles: [] };
  const byFolder = new Map<string, ZipFileEntry[]>();
  for (const file of files) {
    const folder = file.folders[0];
    if (folder === undefined) plan.looseFiles.push(file.path);
    else byFolder.set(folder, [...(byFolder.get(folder) ?? []), file]);
  }
  for (const [folder, inFolder] of byFolder) {
    const named = productsNamed(report, folder);
    const product = named[0];
    const reason =
      named.length === 0
        ? "No product of this import has this name or id."
        : named.length > 1
          ? `More than one product is named like this folder: name it after the product's id (${named.map((each) => each.externalId).join(", ")}).`
          : notTakingFiles(product!);
    if (reason || !product) {
      plan.skippedFolders.push({ folder, reason: reason ?? "" });
      continue;
    }
    const entry = plan.byProduct.get(product.externalId) ?? { product, files: [] };
    entry.files.push(...inFolder);
    plan.byProduct.set(product.externalId, entry);
  }
  return plan;
}

/**
 * What would refuse the ZIP later, said before any file is written: a file's name or size (as every
 * product file is checked), a product given more than 20 files, or more bytes than the storage left.
 */
async function checkBeforeWriting(
  db: Database,
  sellerId: string,
  importId: string,
  zipName: string,
  plan: Plan,
  kept: ZipFileEntry[],
) {
  for (const file of kept) {
    const problem = productFileProblem(file);
    if (problem)
      throw new AppError(
        problem.code,
        400,
        PRODUCT_ZIP_MESSAGES.entryRefused(zipName, file.path, problem.message),
      );
  }
  const counts = await attachedCounts(db, importId);
  for (const { product, files } of plan.byProduct.values()) {
    const count = (counts.get(product.externalId) ?? 0) + files.length;
    if (count > PRODUCT_FILE_LIMITS.maxFiles)
      throw new AppError(
        "too_many_product_files",
        400,
        PRODUCT_ZIP_MESSAGES.tooManyForProduct(zipName, product.title, count, PRODUCT_FILE_LIMITS.maxFiles),
      );
  }
  const { used } = await storageUsedQuery(db, sellerId).executeTakeFirstOrThrow();
  const total = kept.reduce((sum, file) => sum + file.sizeBytes, 0);
  if (Number(used) + total > STORAGE_QUOTA_BYTES)
    throw new AppError("storage_limit_reached", 400, UPLOAD_MESSAGES.storageLimitReached(Number(used)));
}

async function attachedCounts(db: Database, importId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("store_import_product_files")
    .select(["product_external_id", sql<number>`count(*)::int`.as("count")])
    .where("import_id", "=", importId)
    .groupBy("product_external_id")
    .execute();
  return new Map(rows.map((row) => [row.product_external_id, row.count]));
}

/**
 * The ZIP's files after each product's own, in one transaction with the import locked: the import may
 * have started running, or another ZIP filled a product, while this one was unpacked.
 */
async function appendAttached(
  db: Database,
  sellerId: string,
  importId: string,
  zipName: string,
  attached: ProductZipResult["attached"],
) {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("store_imports")
      .select("status")
      .where("id", "=", importId)
      .where("seller_id", "=", sellerId)
      .forUpdate()
      .executeTakeFirst();
    if (!row || (row.status !== "checked" && row.status !== "collecting"))
      throw new AppError("import_locked", 409, STORE_IMPORT_MESSAGES.notCollecting);
    for (const { externalId, title, files } of attached) {
      const { count, last } = await trx
        .selectFrom("store_import_product_files")
        .select([
          sql<number>`count(*)::int`.as("count"),
          sql<number>`coalesce(max(position), -1)::int`.as("last"),
        ])
        .where("import_id", "=", importId)
        .where("product_external_id", "=", externalId)
        .executeTakeFirstOrThrow();
      if (count + files.length > PRODUCT_FILE_LIMITS.maxFiles)
        throw new AppError(
          "too_many_product_files",
          400,
          PRODUCT_ZIP_MESSAGES.tooManyForProduct(
            zipName,
            title,
            count + files.length,
            PRODUCT_FILE_LIMITS.maxFiles,
          ),
        );
      await trx
        .insertInto("store_import_product_files")
        .values(
          files.map((file, index) => ({
            import_id: importId,
            product_external_id: externalId,
            upload_id: file.uploadId,
            position: last + 1 + index,
          })),
        )
        .execute();
    }
  });
}
