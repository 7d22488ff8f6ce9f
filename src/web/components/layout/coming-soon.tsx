import type { LucideIcon } from "lucide-react";
import { Card } from "../ui/card";

/** A placeholder for a seller page whose real content arrives in a later issue. */
export function ComingSoon({ icon: Icon, title, body }: { icon: LucideIcon; title: string; body: string }) {
  return (
    <div>
      <h1 className="text-3xl font-bold tracking-tight text-ink">{title}</h1>
      <Card className="mt-8 flex flex-col items-center px-6 py-16 text-center">
        <span className="flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <p className="mt-5 text-lg font-semibold text-ink">Coming soon</p>
        <p className="mt-2 max-w-md text-sm text-muted">{body}</p>
      </Card>
    </div>
  );
}
