import { Check } from "lucide-react";
import type { StoreImport } from "../../../contracts/store-import";
import { cn } from "../../lib/utils";
import { importStep } from "./store-import-labels";

const STEPS = ["Platform", "Export files", "Dry run", "Import"] as const;

/** Where the import is among its four steps (the current one is aria-current="step"). */
export function ImportSteps({ status, hasReport }: { status?: StoreImport["status"]; hasReport?: boolean }) {
  const current = importStep(status, hasReport);
  const done = status === "imported";
  return (
    <ol className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs font-medium" aria-label="Steps">
      {STEPS.map((step, index) => {
        const past = index < current || (done && index === current);
        const now = index === current && !done;
        return (
          <li key={step} className="flex items-center gap-2" aria-current={now ? "step" : undefined}>
            <span
              className={cn(
                "flex size-5 items-center justify-center rounded-full tabular-nums",
                past && "bg-brand-600 text-white",
                now && "bg-brand-50 text-brand-700 ring-1 ring-brand-600",
                !past && !now && "bg-slate-100 text-muted",
              )}
            >
              {past ? <Check className="size-3" aria-hidden="true" /> : index + 1}
            </span>
            <span className={cn(now ? "text-ink" : "text-muted")}>
              {step}
              {past && <span className="sr-only"> (done)</span>}
            </span>
            {index < STEPS.length - 1 && (
              <span aria-hidden="true" className="hidden h-px w-4 bg-line sm:block" />
            )}
          </li>
        );
      })}
    </ol>
  );
}
