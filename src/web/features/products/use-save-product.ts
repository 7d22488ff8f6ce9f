import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { UploadPurpose } from "../../../contracts/uploads";
import { discardUpload, uploadFile } from "../uploads/upload-client";
import type { UploadProgress } from "../uploads/upload-progress";

export type SaveProgress = { fileName: string; progress: UploadProgress };

/** The files the seller chose in the form: the new product files in order, and a new cover (none: keep). */
export type ChosenFiles = { files: File[]; cover: File | null };
export type UploadedIds = { fileUploadIds: string[]; coverUploadId: string | null };

/** How a save ended; `field` says which upload failed when it was one. */
export type SaveOutcome<T> =
  | { saved: T }
  | { failed: unknown; field?: "file" | "cover" }
  | { cancelled: true };

/**
 * Saving a product form (Publish, Save): the chosen files, one after the other, and then the cover are
 * uploaded when the seller presses the button, then `send` gets their upload ids. Uploads that end up unused (a later
 * step failed, or the seller cancelled or left) are deleted.
 */
export function useSaveProduct() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<SaveProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  // Leaving the page (Back to Dashboard, Cancel) stops an upload in flight; save() then cleans up.
  useEffect(() => () => controller.current?.abort(), []);

  const save = useCallback(
    async <T>(chosen: ChosenFiles, send: (ids: UploadedIds) => Promise<T>): Promise<SaveOutcome<T>> => {
      const abort = new AbortController();
      controller.current = abort;
      setBusy(true);
      const uploaded: string[] = [];
      let uploading: "file" | "cover" | undefined;
      const upload = async (purpose: UploadPurpose, file: File, of = "") => {
        const done = await uploadFile(purpose, file, {
          signal: abort.signal,
          onProgress: (next) => setProgress({ fileName: `${file.name}${of}`, progress: next }),
        });
        uploaded.push(done.uploadId);
        abort.signal.throwIfAborted();
        return done.uploadId;
      };
      try {
        uploading = "file";
        const fileUploadIds: string[] = [];
        for (const [index, file] of chosen.files.entries()) {
          const of = chosen.files.length > 1 ? ` (${index + 1} of ${chosen.files.length})` : "";
          fileUploadIds.push(await upload("product-file", file, of));
        }
        uploading = "cover";
        const coverUploadId = chosen.cover ? await upload("product-cover", chosen.cover) : null;
        uploading = undefined;
        return { saved: await send({ fileUploadIds, coverUploadId }) };
      } catch (error) {
        for (const uploadId of uploaded) void discardUpload(uploadId);
        if (abort.signal.aborted) return { cancelled: true };
        return { failed: error, ...(uploading ? { field: uploading } : {}) };
      } finally {
        if (controller.current === abort) controller.current = null;
        setBusy(false);
        setProgress(null);
      }
    },
    [],
  );

  const cancel = useCallback(() => {
    controller.current?.abort();
    navigate("/dashboard");
  }, [navigate]);

  return { save, cancel, busy, progress };
}
