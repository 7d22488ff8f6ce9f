import type { Sale } from "../../../contracts/orders";
import { Badge } from "../../components/ui/badge";

export function SaleStatusBadge({ status }: { status: Sale["status"] }) {
  return status === "completed" ? (
    <Badge tone="success">Completed</Badge>
  ) : (
    <Badge tone="neutral">Refunded</Badge>
  );
}
