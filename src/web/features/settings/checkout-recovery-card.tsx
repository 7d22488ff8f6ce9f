import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { toast } from "sonner";
import {
  RECOVERY_MESSAGES,
  type RecoverySettings,
  recoverySettingsSchema,
} from "../../../contracts/checkout-recovery";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

export const RECOVERY_LABEL = "Email buyers who leave checkout";
export const RECOVERY_NOTE =
  "Checkout asks buyers whether they want to hear from your store. One who agrees and leaves without paying gets one email an hour later, in their language, with a link back to the same product and price. At most one a week per buyer and product; never after they bought it or unsubscribed. Sales made through it show as Recovered in Analytics.";

const recoveryKey = (userId: string) => [...sellerKeys.all(userId), "checkout-recovery"] as const;
const PATH = "/api/checkout-recovery/settings";

/** Settings → Checkout recovery: the store's switch for recovery emails (docs/checkout-recovery.md). */
export function CheckoutRecoveryCard({ userId }: { userId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: recoveryKey(userId),
    queryFn: ({ signal }) => api(PATH, { schema: recoverySettingsSchema, signal }),
  });
  const save = useMutation({
    mutationFn: (input: RecoverySettings) =>
      api(PATH, { method: "PUT", body: input, schema: recoverySettingsSchema }),
    onSuccess: (saved) => {
      queryClient.setQueryData(recoveryKey(userId), saved);
      toast.success(RECOVERY_MESSAGES.saved);
    },
  });
  const enabled = save.isPending
    ? (save.variables?.enabled ?? settings.data?.enabled ?? true)
    : (settings.data?.enabled ?? true);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Checkout recovery</CardTitle>
        <CardDescription>A reminder for buyers who started paying and didn't finish.</CardDescription>
      </CardHeader>
      <div className="px-6 pt-3 pb-6">
        {settings.isPending ? (
          <Spinner label="Loading" />
        ) : settings.isError ? (
          <RetryNotice message={RECOVERY_MESSAGES.loadFailed} onRetry={() => void settings.refetch()} />
        ) : (
          <label htmlFor={id} className="flex cursor-pointer items-start gap-3 text-sm text-ink">
            <input
              id={id}
              type="checkbox"
              role="switch"
              aria-checked={enabled}
              aria-describedby={`${id}-note`}
              className="peer sr-only"
              checked={enabled}
              disabled={save.isPending}
              onChange={(event) => save.mutate({ enabled: event.target.checked })}
            />
            <span
              aria-hidden="true"
              className="relative mt-0.5 h-6 w-10 shrink-0 rounded-full bg-slate-300 transition-colors peer-checked:bg-brand-600 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 peer-focus-visible:ring-offset-2 peer-disabled:opacity-60 after:absolute after:top-0.5 after:left-0.5 after:size-5 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:after:translate-x-4"
            />
            <span className="min-w-0">
              <span className="block font-medium">{RECOVERY_LABEL}</span>
              <span id={`${id}-note`} className="block text-xs text-muted">
                {RECOVERY_NOTE}
              </span>
            </span>
          </label>
        )}
      </div>
    </Card>
  );
}
