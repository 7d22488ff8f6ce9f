import { Link } from "react-router";
import { SALE_DISPUTE_LABELS } from "../../../contracts/disputes";
import type { Sale } from "../../../contracts/orders";
import { IMPORT_PLATFORM_NAMES, type ImportPlatformName } from "../../../contracts/store-import";
import { Badge } from "../../components/ui/badge";

const platformName = (platform: string) => IMPORT_PLATFORM_NAMES[platform as ImportPlatformName] ?? platform;

const DISPUTE_TONES = { open: "danger", won: "success", lost: "neutral" } as const;

/** The sale's status, its dispute (a link to the dispute's page) when it has one, and where an imported sale was made. */
export function SaleStatusBadge({
  status,
  dispute,
  importedFrom,
}: {
  status: Sale["status"];
  dispute?: Sale["dispute"];
  importedFrom?: Sale["importedFrom"];
}) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {status === "completed" ? (
        <Badge tone="success">Completed</Badge>
      ) : (
        <Badge tone="neutral">Refunded</Badge>
      )}
      {dispute && (
        <Link
          to={`/dashboard/disputes/${encodeURIComponent(dispute.id)}`}
          className="rounded-full outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <Badge tone={DISPUTE_TONES[dispute.status]} className="hover:underline">
            {SALE_DISPUTE_LABELS[dispute.status]}
          </Badge>
        </Link>
      )}
      {importedFrom && (
        // Short in the narrow status column; the platform is in its title and for screen readers.
        <Badge tone="neutral" title={`Imported from ${platformName(importedFrom)}`}>
          Imported<span className="sr-only"> from {platformName(importedFrom)}</span>
        </Badge>
      )}
    </span>
  );
}
