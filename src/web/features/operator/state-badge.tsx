import type { SellerState } from "../../../contracts/enforcement";
import { Badge } from "../../components/ui/badge";

const LABELS: Record<SellerState, string> = {
  good: "Good standing",
  restricted: "Restricted",
  suspended: "Suspended",
};

/** A seller's standing as a badge: green, amber (restricted) or red (suspended). */
export function StateBadge({ state }: { state: SellerState }) {
  return (
    <Badge tone={state === "good" ? "success" : state === "restricted" ? "warning" : "danger"}>
      {LABELS[state]}
    </Badge>
  );
}
