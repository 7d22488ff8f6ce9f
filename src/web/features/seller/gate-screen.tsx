import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../../lib/utils";

/** The frame shared by the screens a seller sees before the dashboard opens. */
export function GateScreen({
  icon: Icon,
  tone = "brand",
  eyebrow,
  title,
  children,
}: {
  icon: LucideIcon;
  tone?: "brand" | "success" | "danger";
  eyebrow?: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-4xl">
      <div className="flex items-center gap-4">
        <span
          className={cn(
            "flex size-12 shrink-0 items-center justify-center rounded-xl ring-1",
            tone === "brand" && "bg-brand-50 text-brand-700 ring-brand-100",
            tone === "success" && "bg-emerald-50 text-emerald-700 ring-emerald-100",
            tone === "danger" && "bg-red-50 text-red-700 ring-red-100",
          )}
        >
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <div>
          {eyebrow && <p className="text-sm font-medium text-brand-700">{eyebrow}</p>}
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{title}</h1>
        </div>
      </div>
      <div className="mt-8">{children}</div>
    </div>
  );
}

/** A short list with check marks. */
export function CheckList({ items, icon: Icon }: { items: readonly string[]; icon: LucideIcon }) {
  return (
    <ul className="space-y-3">
      {items.map((item) => (
        <li key={item} className="flex items-start gap-3 text-sm text-ink">
          <span className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <Icon className="size-3" aria-hidden="true" />
          </span>
          {item}
        </li>
      ))}
    </ul>
  );
}
