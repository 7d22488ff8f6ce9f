import type { LucideIcon } from "lucide-react";
import { Card, CardHeader, CardTitle } from "../../components/ui/card";

/** A dashboard section whose content arrives in later work: says so, shows no fake data. */
export function SectionPlaceholder({
  title,
  icon: Icon,
  body,
}: {
  title: string;
  icon: LucideIcon;
  body: string;
}) {
  return (
    <Card role="region" aria-label={title}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <div className="m-6 flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-slate-50/60 px-6 py-10 text-center">
        <Icon className="size-6 text-slate-400" aria-hidden="true" />
        <p className="mt-3 text-sm font-medium text-ink">Coming soon</p>
        <p className="mt-1 max-w-sm text-sm text-muted">{body}</p>
      </div>
    </Card>
  );
}
