import { toast } from "sonner";
import { isAlreadyReported } from "../../lib/already-reported";
import { UploadError } from "./upload-error";

/** The toast for a failed upload step: the spec's title for its code, with the message. */
export function showUploadError(error: unknown, fallbackTitle = "Upload failed"): void {
  if (error instanceof UploadError) {
    toast.error(error.title, { description: error.message });
    return;
  }
  if (isAlreadyReported(error)) return;
  toast.error(fallbackTitle, { description: error instanceof Error ? error.message : "Please try again" });
}
