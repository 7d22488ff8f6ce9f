import { KeyRound } from "lucide-react";
import { toast } from "sonner";
import { LICENSE_MESSAGES } from "../../../contracts/licenses";
import type { Sale } from "../../../contracts/orders";
import { countOf } from "../../../contracts/plural";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { isAlreadyReported } from "../../lib/already-reported";
import { cn } from "../../lib/utils";
import { useSetLicenseDisabled } from "./licenses-api";

const verifications = (uses: number) => countOf(uses, "verification");

/**
 * A sale's license key in the sales table and the phone cards: the key (selectable; its whole text in
 * the tooltip), how many verifications counted, and Disable / Enable. A refunded sale's key is refused
 * anyway, so it has no switch. Nothing for a sale without a key.
 */
export function SaleLicense({ userId, sale, className }: { userId: string; sale: Sale; className?: string }) {
  const change = useSetLicenseDisabled(userId);
  const license = sale.license;
  if (!license) return null;
  const next = !license.disabled;
  const toggle = () =>
    change.mutate(
      { orderId: sale.id, disabled: next },
      {
        onSuccess: () =>
          toast.success(next ? LICENSE_MESSAGES.disabledTitle : LICENSE_MESSAGES.enabledTitle, {
            description: next
              ? `The key of ${sale.customerEmail} is refused from now on.`
              : `The key of ${sale.customerEmail} verifies again.`,
          }),
        onError: (error) => {
          if (!isAlreadyReported(error)) toast.error("Change failed", { description: error.message });
        },
      },
    );
  return (
    <div className={cn("min-w-0 space-y-0.5 text-xs text-muted", className)}>
      <p className="flex min-w-0 items-center gap-1.5">
        <KeyRound className="size-3.5 shrink-0 text-brand-600" aria-label="License key" role="img" />
        <code className="min-w-0 truncate font-mono text-ink select-all" title={license.key}>
          {license.key}
        </code>
      </p>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        {license.disabled && <Badge tone="warning">Key disabled</Badge>}
        <span className="tabular-nums">{verifications(license.uses)}</span>
        {sale.status === "completed" && (
          <Button
            variant="link"
            size="sm"
            className="h-auto px-0 text-xs"
            disabled={change.isPending}
            aria-label={`${next ? "Disable key" : "Enable key"} of the sale to ${sale.customerEmail}`}
            onClick={toggle}
          >
            {next ? "Disable key" : "Enable key"}
          </Button>
        )}
      </p>
    </div>
  );
}
