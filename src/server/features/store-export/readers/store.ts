import { type ArchiveStore, picturePath } from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import { notFound } from "../../../http/errors";
import { type ArchiveObject, iso } from "./keyset";

/** store.json: the store's profile, tax and invoice settings; the picture's object, if it has one. */
export async function readStore(
  db: Database,
  sellerId: string,
): Promise<{ record: ArchiveStore; objects: ArchiveObject[] }> {
  const profile = await db
    .selectFrom("profiles")
    .leftJoin("uploads", (join) =>
      join
        .onRef("uploads.id", "=", "profiles.profile_picture_upload_id")
        .on("uploads.seller_id", "=", sellerId),
    )
    .select([
      "profiles.store_name",
      "profiles.store_tagline",
      "profiles.store_description",
      "profiles.store_currency",
      "profiles.adaptive_pricing",
      "profiles.checkout_recovery_emails",
      "profiles.created_at",
      "uploads.storage_key as picture_key",
      "uploads.content_type as picture_type",
    ])
    .where("profiles.id", "=", sellerId)
    .executeTakeFirst();
  if (!profile) throw notFound();
  const [tax, sequences] = await Promise.all([
    db.selectFrom("store_tax_settings").selectAll().where("seller_id", "=", sellerId).executeTakeFirst(),
    db
      .selectFrom("invoice_sequences")
      .select(["kind", "last_number"])
      .where("seller_id", "=", sellerId)
      .execute(),
  ]);
  const lastNumber = (kind: "invoice" | "credit_note") =>
    sequences.find((sequence) => sequence.kind === kind)?.last_number ?? 0;
  const picture =
    profile.picture_key && profile.picture_type
      ? { path: picturePath(profile.picture_type), contentType: profile.picture_type }
      : null;
  const record: ArchiveStore = {
    id: sellerId,
    name: profile.store_name,
    tagline: profile.store_tagline,
    description: profile.store_description,
    currency: profile.store_currency,
    adaptivePricing: profile.adaptive_pricing,
    checkoutRecoveryEmails: profile.checkout_recovery_emails,
    picture,
    tax: tax
      ? {
          collectTax: tax.collect_tax,
          taxBehavior: tax.tax_behavior,
          headOfficeCountry: tax.head_office_country,
          legalName: tax.legal_name,
          legalAddress: tax.legal_address,
          taxId: tax.tax_id,
          invoicePrefix: tax.invoice_prefix,
          waiverOutsideEu: tax.waiver_outside_eu,
        }
      : null,
    invoiceNumbers: { lastInvoice: lastNumber("invoice"), lastCreditNote: lastNumber("credit_note") },
    createdAt: iso(profile.created_at),
  };
  const objects: ArchiveObject[] =
    picture && profile.picture_key
      ? [{ path: picture.path, bucket: "product-covers", key: profile.picture_key, sizeBytes: null }]
      : [];
  return { record, objects };
}
