import type { ReactNode } from "react";
import { toast } from "sonner";
import { isAlreadyReported } from "../lib/already-reported";
import { ConfirmDialog } from "./ui/confirm-dialog";

/** What the dialog needs from a delete mutation (a react-query `useMutation` result fits). */
export type DeleteMutation = {
  mutate: (id: string, callbacks: { onSuccess: () => void; onError: (error: Error) => void }) => void;
  isPending: boolean;
};

/**
 * Asks before deleting `target` (open while it is set). On success: a toast naming what went, then close.
 * On failure: an error toast, unless the app already reported it, and the dialog stays open to retry.
 */
export function DeleteConfirmDialog<T extends { id: string }>({
  target,
  mutation,
  title,
  description,
  deletedTitle,
  deletedDescription,
  onClose,
  children,
}: {
  target: T | null;
  mutation: DeleteMutation;
  title: string;
  description: string;
  /** The success toast's title; its description names the deleted item. */
  deletedTitle: string;
  deletedDescription: (target: T) => string;
  onClose: () => void;
  /** Shown under the description, e.g. the item about to go. */
  children?: ReactNode;
}) {
  const confirm = () => {
    if (!target) return;
    mutation.mutate(target.id, {
      onSuccess: () => {
        toast.success(deletedTitle, { description: deletedDescription(target) });
        onClose();
      },
      onError: (error) => {
        if (!isAlreadyReported(error)) toast.error("Error", { description: error.message });
      },
    });
  };
  return (
    <ConfirmDialog
      open={target !== null}
      title={title}
      description={description}
      confirmLabel="Delete"
      busyLabel="Deleting..."
      busy={mutation.isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
      {children}
    </ConfirmDialog>
  );
}
