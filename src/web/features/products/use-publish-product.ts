import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { PRODUCT_MESSAGES } from "../../../contracts/products";
import type { UploadPurpose } from "../../../contracts/uploads";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError } from "../../lib/api";
import { copyToClipboard } from "../../lib/clipboard";
import { sellerKeys } from "../../lib/seller-status";
import { discardUpload, uploadFile } from "../uploads/upload-client";
import { UploadError } from "../uploads/upload-error";
import type { UploadProgress } from "../uploads/upload-progress";
import { showUploadError } from "../uploads/upload-toast";
import { type ProductFormValues, toCreateProductInput } from "./product-form";
import { createProduct, productUrl } from "./products-api";

export type PublishProgress = { fileName: string; progress: UploadProgress };

function showCreated(productId: string): void {
  const url = productUrl(window.location.origin, productId);
  toast.success(PRODUCT_MESSAGES.createdTitle, {
    description: PRODUCT_MESSAGES.created,
    action: { label: "Copy Link", onClick: () => void copyToClipboard(url, PRODUCT_MESSAGES.linkCopied) },
  });
}

function showPublishError(error: unknown): void {
  if (error instanceof UploadError) {
    showUploadError(error);
    return;
  }
  if (isAlreadyReported(error)) return;
  const message = error instanceof ApiError ? error.message : "Please try again";
  toast.error(PRODUCT_MESSAGES.createFailedTitle, { description: message });
}

/**
 * Publish: upload the file (then the cover) when the seller presses Publish, create the product, go to the
 * dashboard. Uploads that end up unused (a later step failed, or the seller cancelled or left) are deleted.
 */
export function usePublishProduct(userId: string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<PublishProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  // Leaving the page (Back to Dashboard, Cancel) stops an upload in flight; publish() then cleans up.
  useEffect(() => () => controller.current?.abort(), []);

  const publish = useCallback(
    async (values: ProductFormValues, file: File, cover: File | null) => {
      const abort = new AbortController();
      controller.current = abort;
      setBusy(true);
      const uploaded: string[] = [];
      const upload = async (purpose: UploadPurpose, chosen: File) => {
        const done = await uploadFile(purpose, chosen, {
          signal: abort.signal,
          onProgress: (next) => setProgress({ fileName: chosen.name, progress: next }),
        });
        uploaded.push(done.uploadId);
        abort.signal.throwIfAborted();
        return done.uploadId;
      };
      try {
        const fileUploadId = await upload("product-file", file);
        const coverUploadId = cover ? await upload("product-cover", cover) : null;
        const product = await createProduct(toCreateProductInput(values, fileUploadId, coverUploadId));
        // Refetched now, not when the dashboard mounts, so it opens with the new product in it.
        await queryClient.invalidateQueries({ queryKey: sellerKeys.all(userId), refetchType: "all" });
        showCreated(product.id);
        if (!abort.signal.aborted) navigate("/dashboard");
      } catch (error) {
        for (const uploadId of uploaded) void discardUpload(uploadId);
        if (!abort.signal.aborted) showPublishError(error);
      } finally {
        if (controller.current === abort) controller.current = null;
        setBusy(false);
        setProgress(null);
      }
    },
    [navigate, queryClient, userId],
  );

  const cancel = useCallback(() => {
    controller.current?.abort();
    navigate("/dashboard");
  }, [navigate]);

  return { publish, cancel, busy, progress };
}
