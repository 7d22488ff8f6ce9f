import { EllipsisVertical, RotateCcw, Undo2 } from "lucide-react";
import { toast } from "sonner";
import { ORDER_MESSAGES, PURCHASE_RULES, type Sale } from "../../../contracts/orders";
import { Button } from "../../components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "../../components/ui/dropdown-menu";
import { isAlreadyReported } from "../../lib/already-reported";
import { useResetDownloads } from "./sales-api";

/** Per order: Refund (asks first) and Reset downloads. */
export function SaleActionsMenu({
  userId,
  sale,
  onRefund,
}: {
  userId: string;
  sale: Sale;
  onRefund: (sale: Sale) => void;
}) {
  const reset = useResetDownloads(userId);
  const refunded = sale.status === "refunded";
  const resetDownloads = () =>
    reset.mutate(sale.id, {
      onSuccess: () =>
        toast.success(ORDER_MESSAGES.downloadsResetTitle, {
          description: `${sale.customerEmail} can download ${sale.productTitle} ${PURCHASE_RULES.maxDownloads} more times.`,
        }),
      onError: (error) => {
        if (!isAlreadyReported(error)) toast.error("Reset failed", { description: error.message });
      },
    });
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Actions for the sale to ${sale.customerEmail}`}>
          <EllipsisVertical aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem
          disabled={refunded || sale.downloadsUsed === 0 || reset.isPending}
          onSelect={resetDownloads}
        >
          <RotateCcw aria-hidden="true" />
          Reset downloads
        </DropdownMenuItem>
        <DropdownMenuItem destructive disabled={refunded} onSelect={() => onRefund(sale)}>
          <Undo2 aria-hidden="true" />
          Refund
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
