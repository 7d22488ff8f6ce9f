import { CircleCheck, CircleX, type LucideIcon } from "lucide-react";
import { Badge } from "../../components/ui/badge";
import { cn } from "../../lib/utils";

export function ServiceRow({
  icon: Icon,
  name,
  up,
  compact = false,
}: {
  icon: LucideIcon;
  name: string;
  up: boolean;
  compact?: boolean;
}) {
  return (
    <li className={cn("flex items-center justify-between gap-3", compact ? "px-5 py-3" : "px-5 py-4")}>
      <span className={cn("flex items-center gap-3 font-medium text-ink", compact && "text-sm")}>
        <Icon className={cn("shrink-0 text-muted", compact ? "size-4" : "size-5")} aria-hidden="true" />
        {name}
      </span>
      {up ? (
        <Badge tone="success">
          <CircleCheck className="size-3.5" aria-hidden="true" />
          Operational
        </Badge>
      ) : (
        <Badge tone="danger">
          <CircleX className="size-3.5" aria-hidden="true" />
          Down
        </Badge>
      )}
    </li>
  );
}
