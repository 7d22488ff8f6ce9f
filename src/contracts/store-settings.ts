import { z } from "zod";

/** Character limits of the store texts (product rules, Validation rules). */
export const STORE_TEXT_LIMITS = { storeName: 100, storeTagline: 200, storeDescription: 1000 } as const;

export const STORE_SETTINGS_MESSAGES = {
  nameTooLong: "Store name must be under 100 characters",
  taglineTooLong: "Tagline must be under 200 characters",
  descriptionTooLong: "Description must be under 1000 characters",
  fileTooLargeTitle: "File too large",
  updatedTitle: "Store updated!",
  updateFailedTitle: "Failed to update",
  nameRequired: "Enter a name for your store",
} as const;

/**
 * Trimmed; empty (or null) becomes null (product rules, Validation rules). Left out, the saved text is kept, so one
 * field can be saved alone (the dashboard's "Name your store" sends only the name).
 */
const optionalText = (max: number, message: string) =>
  z
    .string()
    .nullish()
    .transform((value) => (value === undefined ? undefined : (value?.trim() ?? "")))
    .pipe(z.string().max(max, message).optional())
    .transform((value) => (value === undefined ? undefined : value === "" ? null : value));

export const storeSettingsInputSchema = z.object({
  storeName: optionalText(STORE_TEXT_LIMITS.storeName, STORE_SETTINGS_MESSAGES.nameTooLong),
  storeTagline: optionalText(STORE_TEXT_LIMITS.storeTagline, STORE_SETTINGS_MESSAGES.taglineTooLong),
  storeDescription: optionalText(
    STORE_TEXT_LIMITS.storeDescription,
    STORE_SETTINGS_MESSAGES.descriptionTooLong,
  ),
  /** A completed profile-picture upload to use; omit to keep the current picture, null to remove it. */
  profilePictureUploadId: z.string().min(1).nullish(),
});
export type StoreSettingsInput = z.input<typeof storeSettingsInputSchema>;

export const storeSettingsSchema = z.object({
  storeName: z.string().nullable(),
  storeTagline: z.string().nullable(),
  storeDescription: z.string().nullable(),
  profilePictureUrl: z.string().nullable(),
});
export type StoreSettings = z.infer<typeof storeSettingsSchema>;
