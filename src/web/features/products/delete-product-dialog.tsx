import { toast } from "sonner";
import { PRODUCT_MESSAGES } from "../../../contracts/products";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogConfirm,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "../../components/ui/alert-dialog";
import { isAlreadyReported } from "../../lib/already-reported";
import { useDeleteProduct } from "./products-api";

/** The exact confirmation of SPEC section 2; Delete waits for the server before closing. */
export function DeleteProductDialog({
  userId,
  productId,
  onClose,
}: {
  userId: string;
  /** The product to delete; null keeps the dialog closed. */
  productId: string | null;
  onClose: () => void;
}) {
  const { mutate, isPending } = useDeleteProduct(userId);
  const confirm = () => {
    if (!productId) return;
    mutate(productId, {
      onSuccess: () => {
        toast.success(PRODUCT_MESSAGES.deletedTitle, { description: PRODUCT_MESSAGES.deleted });
        onClose();
      },
      onError: (error) => {
        if (!isAlreadyReported(error)) toast.error("Error", { description: error.message });
      },
    });
  };
  return (
    <AlertDialog open={productId !== null} onOpenChange={(open) => !open && !isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogTitle>{PRODUCT_MESSAGES.deleteConfirmTitle}</AlertDialogTitle>
        <AlertDialogDescription>{PRODUCT_MESSAGES.deleteConfirm}</AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={isPending}>Cancel</AlertDialogCancel>
          <AlertDialogConfirm onClick={confirm} disabled={isPending}>
            {isPending ? "Deleting..." : "Delete"}
          </AlertDialogConfirm>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
