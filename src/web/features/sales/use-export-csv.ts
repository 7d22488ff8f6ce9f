import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { ORDER_MESSAGES } from "../../../contracts/orders";
import { isAlreadyReported } from "../../lib/already-reported";
import { browserExportDeps, exportSalesCsv } from "./export-csv";

/** Export CSV with the toasts of product rules, Error catalogue; dates in the browser's own time zone. */
export function useExportCsv(totalSales: number) {
  const { mutate, isPending } = useMutation({
    mutationFn: () =>
      exportSalesCsv(totalSales, Intl.DateTimeFormat().resolvedOptions().timeZone, browserExportDeps),
    onSuccess: (outcome) => {
      if (outcome === "empty") toast.info(ORDER_MESSAGES.noDataTitle, { description: ORDER_MESSAGES.noData });
      else toast.success(ORDER_MESSAGES.exportedTitle, { description: ORDER_MESSAGES.exported });
    },
    onError: (error) => {
      if (!isAlreadyReported(error)) toast.error("Export failed", { description: error.message });
    },
  });
  return { exportCsv: () => mutate(), isExporting: isPending };
}
