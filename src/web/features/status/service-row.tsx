import { CircleCheck, CircleX, type LucideIcon } from "lucide-react";
import { Badge } from "../../components/ui/badge";

export function ServiceRow({ icon: Icon, name, up }: { icon: LucideIcon; name: string; up: boolean }) {
  return (
    <li className="flex items-center justify-between gap-4 px-5 py-4">
      <span className="flex items-center gap-3 font-medium text-ink">
        <Icon className="size-5 text-muted" aria-hidden="true" />
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
