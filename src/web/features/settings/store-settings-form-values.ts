import {
  type StoreSettings,
  type StoreSettingsInput,
  storeSettingsInputSchema,
} from "../../../contracts/store-settings";

export type StoreSettingsValues = { storeName: string; storeTagline: string; storeDescription: string };

export type PictureChange = { kind: "keep" } | { kind: "remove" } | { kind: "replace"; uploadId: string };

export { STORE_TEXT_LIMITS } from "../../../contracts/store-settings";

export function formValuesOf(settings: StoreSettings): StoreSettingsValues {
  return {
    storeName: settings.storeName ?? "",
    storeTagline: settings.storeTagline ?? "",
    storeDescription: settings.storeDescription ?? "",
  };
}

/** The first rule the texts break, with the contract's message (product rules, Validation rules). */
export function storeSettingsProblem(
  values: StoreSettingsValues,
): { field: keyof StoreSettingsValues; message: string } | undefined {
  const parsed = storeSettingsInputSchema.safeParse(values);
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  if (!issue) return undefined;
  return { field: issue.path[0] as keyof StoreSettingsValues, message: issue.message };
}

/** The body of PUT /api/store-settings; the picture is left out to keep it, null to remove it. */
export function toStoreSettingsInput(
  values: StoreSettingsValues,
  picture: PictureChange,
): StoreSettingsInput {
  if (picture.kind === "keep") return values;
  return { ...values, profilePictureUploadId: picture.kind === "remove" ? null : picture.uploadId };
}
