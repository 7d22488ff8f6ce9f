import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { STORE_SETTINGS_MESSAGES } from "../../../contracts/store-settings";
import { isAlreadyReported } from "../../lib/already-reported";
import { sellerKeys } from "../../lib/seller-status";
import { discardUpload, uploadFile } from "../uploads/upload-client";
import { UploadError } from "../uploads/upload-error";
import { showUploadError } from "../uploads/upload-toast";
import { saveStoreSettings } from "./store-settings-api";
import {
  type PictureChange,
  type StoreSettingsValues,
  toStoreSettingsInput,
} from "./store-settings-form-values";

/** A new picture, the saved one removed, or the saved one kept. */
export type PictureChoice = { kind: "keep" } | { kind: "remove" } | { kind: "replace"; file: File };

/** What a failed save was about, for the form to show next to that field. */
export type SaveProblem = { field: keyof StoreSettingsValues | "picture" | "form"; message: string };

const FIELD_OF_MESSAGE: Record<string, keyof StoreSettingsValues> = {
  [STORE_SETTINGS_MESSAGES.nameTooLong]: "storeName",
  [STORE_SETTINGS_MESSAGES.taglineTooLong]: "storeTagline",
  [STORE_SETTINGS_MESSAGES.descriptionTooLong]: "storeDescription",
};

/**
 * Save: upload a new picture first, then the settings; 'Store updated!' and back to the dashboard.
 * A failure is toasted and answered, so the form can also show it next to its field.
 */
export function useSaveStoreSettings(userId: string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);

  const save = async (values: StoreSettingsValues, picture: PictureChoice): Promise<SaveProblem | null> => {
    setSaving(true);
    let uploadId: string | null = null;
    try {
      if (picture.kind === "replace") uploadId = (await uploadFile("profile-picture", picture.file)).uploadId;
      const change: PictureChange = uploadId ? { kind: "replace", uploadId } : { kind: "keep" };
      await saveStoreSettings(toStoreSettingsInput(values, picture.kind === "remove" ? picture : change));
      await queryClient.invalidateQueries({ queryKey: sellerKeys.all(userId) });
      await queryClient.invalidateQueries({ queryKey: ["public", "store", userId] });
      toast.success(STORE_SETTINGS_MESSAGES.updatedTitle);
      navigate("/dashboard");
      return null;
    } catch (error) {
      if (uploadId) void discardUpload(uploadId);
      if (error instanceof UploadError) {
        showUploadError(error);
        return { field: "picture", message: error.message };
      }
      if (isAlreadyReported(error)) return null;
      const message = error instanceof Error ? error.message : "Please try again";
      toast.error(STORE_SETTINGS_MESSAGES.updateFailedTitle, { description: message });
      return { field: FIELD_OF_MESSAGE[message] ?? "form", message };
    } finally {
      setSaving(false);
    }
  };
  return { save, saving };
}
