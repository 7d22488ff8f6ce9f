import { PRODUCT_MESSAGES } from "../../../contracts/products";
import { DeleteConfirmDialog } from "../../components/delete-confirm-dialog";
import { useDeleteProduct } from "./products-api";

/** The exact confirmation of product rules, Screens and routes; Delete waits for the server before closing. */
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
  return (
    <DeleteConfirmDialog
      target={productId === null ? null : { id: productId }}
      mutation={useDeleteProduct(userId)}
      title={PRODUCT_MESSAGES.deleteConfirmTitle}
      description={PRODUCT_MESSAGES.deleteConfirm}
      deletedTitle={PRODUCT_MESSAGES.deletedTitle}
      deletedDescription={() => PRODUCT_MESSAGES.deleted}
      onClose={onClose}
    />
  );
}
