import type { z } from "zod";
import type { StoreSettings, storeSettingsInputSchema } from "../../../contracts/store-settings";
import { type ChangeDeps, commitChange } from "../../adapters/events/commit-change";
import { PUBLIC_PAGES_CHANGED } from "../../adapters/events/event-bus";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { enqueueAccountRename } from "../payouts";
import { attachUpload, deleteStoredFile } from "../uploads";

type StoreSettingsUpdate = z.output<typeof storeSettingsInputSchema>;

export async function getStoreSettings(db: Database, sellerId: string): Promise<StoreSettings> {
  const row = await db
    .selectFrom("profiles")
    .select(["store_name", "store_tagline", "store_description", "profile_picture_url"])
    .where("id", "=", sellerId)
    .executeTakeFirstOrThrow();
  return {
    storeName: row.store_name,
    storeTagline: row.store_tagline,
    storeDescription: row.store_description,
    profilePictureUrl: row.profile_picture_url,
  };
}

/**
 * Saves the signed-in seller's store profile; a text or picture left out is kept. A new picture must
 * be a checked profile-picture upload of theirs; the one it replaces (or removes) is deleted with its file.
 */
export async function updateStoreSettings(
  deps: ChangeDeps & { storage: Storage },
  sellerId: string,
  input: StoreSettingsUpdate,
): Promise<StoreSettings> {
  const replaced = await commitChange(deps, async (trx, announce) => {
    announce(sellerId, PUBLIC_PAGES_CHANGED);
    // The store's name is also the business name buyers see on Stripe's Checkout: pushed by a job.
    if (input.storeName !== undefined) await enqueueAccountRename(trx, sellerId);
    const current = await trx
      .selectFrom("profiles")
      .select("profile_picture_upload_id")
      .where("id", "=", sellerId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const picture =
      input.profilePictureUploadId === undefined
        ? undefined
        : input.profilePictureUploadId === null
          ? null
          : await attachUpload(trx, sellerId, input.profilePictureUploadId, "profile-picture");
    await trx
      .updateTable("profiles")
      .set({
        // A text left out of the request keeps its saved value.
        ...(input.storeName === undefined ? {} : { store_name: input.storeName }),
        ...(input.storeTagline === undefined ? {} : { store_tagline: input.storeTagline }),
        ...(input.storeDescription === undefined ? {} : { store_description: input.storeDescription }),
        ...(picture === undefined
          ? {}
          : {
              profile_picture_upload_id: picture?.id ?? null,
              profile_picture_url: picture?.storage_key ? deps.storage.publicUrl(picture.storage_key) : null,
            }),
        updated_at: new Date(),
      })
      .where("id", "=", sellerId)
      .execute();
    const changed = picture !== undefined && current.profile_picture_upload_id !== (picture?.id ?? null);
    return changed ? current.profile_picture_upload_id : null;
  });
  // The picture replaced or removed goes, with its file (each picture has its own key).
  if (replaced) await deleteStoredFile(deps, sellerId, replaced);
  return getStoreSettings(deps.db, sellerId);
}
