import { toast } from "sonner";
import { PRODUCT_MESSAGES } from "../../../contracts/products";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
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
    <ConfirmDialog
      open={productId !== null}
      title={PRODUCT_MESSAGES.deleteConfirmTitle}
      description={PRODUCT_MESSAGES.deleteConfirm}
      confirmLabel="Delete"
      busyLabel="Deleting..."
      busy={isPending}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}
