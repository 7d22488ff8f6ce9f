import { toast } from "sonner";
import type { Toast } from "../../../contracts/auth";

export function showErrorToast({ title, description }: Toast): void {
  toast.error(title, description ? { description } : undefined);
}

export function showSuccessToast({ title, description }: Toast): void {
  toast.success(title, description ? { description } : undefined);
}

/**
 * A thrown fetch failure (server unreachable) has already been reported globally as
 * 'Network Error'; anything else is shown with the form's own failure title.
 */
export function showThrownError(error: unknown, title: string): void {
  if (error instanceof TypeError) return;
  showErrorToast({ title, description: error instanceof Error ? error.message : "Please try again" });
}
