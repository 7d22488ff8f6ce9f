import { toast } from "sonner";
import { ORDER_MESSAGES, type Sale } from "../../../contracts/orders";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { isAlreadyReported } from "../../lib/already-reported";
import { saleAmountLabel } from "./sale-format";
import { useRefundOrder } from "./sales-api";

/** Confirms a refund; Refund waits for Stripe before closing. */
export function RefundDialog({
  userId,
  sale,
  onClose,
}: {
  userId: string;
  sale: Sale | null;
  onClose: () => void;
}) {
  const { mutate, isPending } = useRefundOrder(userId);
  const confirm = () => {
    if (!sale) return;
    mutate(sale.id, {
      onSuccess: () => {
        toast.success(ORDER_MESSAGES.refundedTitle, {
          description: `${saleAmountLabel(sale)} is on its way back to ${sale.customerEmail}.`,
        });
        onClose();
      },
      onError: (error) => {
        if (!isAlreadyReported(error)) toast.error("Refund failed", { description: error.message });
        onClose();
      },
    });
  };
  return (
    <ConfirmDialog
      open={sale !== null}
      title="Refund order"
      description={ORDER_MESSAGES.refundConfirm}
      confirmLabel="Refund"
      busyLabel="Refunding..."
      busy={isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
      {sale && (
        <p className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-sm wrap-anywhere text-ink">
          {sale.productTitle} · {saleAmountLabel(sale)} · {sale.customerEmail}
        </p>
      )}
    </ConfirmDialog>
  );
}
