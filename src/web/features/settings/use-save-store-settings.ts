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

/** Save: upload a new picture first, then the settings; 'Store updated!' and back to the dashboard. */
export function useSaveStoreSettings(userId: string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);

  const save = async (values: StoreSettingsValues, picture: PictureChoice) => {
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
    } catch (error) {
      if (uploadId) void discardUpload(uploadId);
      if (error instanceof UploadError) showUploadError(error);
      else if (!isAlreadyReported(error)) {
        toast.error(STORE_SETTINGS_MESSAGES.updateFailedTitle, {
          description: error instanceof Error ? error.message : "Please try again",
        });
      }
    } finally {
      setSaving(false);
    }
  };
  return { save, saving };
}
