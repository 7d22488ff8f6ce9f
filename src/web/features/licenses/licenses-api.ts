import { useMutation, useQueryClient } from "@tanstack/react-query";
import { saleLicenseSchema } from "../../../contracts/licenses";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

/** Disables a sale's license key (verification refuses it at once) or enables it again. */
export function useSetLicenseDisabled(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, disabled }: { orderId: string; disabled: boolean }) =>
      api(`/api/licenses/${encodeURIComponent(orderId)}`, {
        method: "PATCH",
        body: { disabled },
        schema: saleLicenseSchema,
      }),
    // The realtime `sales.changed` refreshes other tabs; this one refreshes at once.
    onSettled: () => queryClient.invalidateQueries({ queryKey: sellerKeys.sales(userId) }),
  });
}
