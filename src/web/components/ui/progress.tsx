import { Progress as ProgressPrimitive } from "radix-ui";
import { cn } from "../../lib/utils";

/** A determinate progress bar; `value` is a percentage from 0 to 100. */
export function Progress({
  value,
  label,
  className,
}: {
  value: number;
  /** What is progressing, for screen readers. */
  label: string;
  className?: string;
}) {
  return (
    <ProgressPrimitive.Root
      value={value}
      max={100}
      aria-label={label}
      className={cn("relative h-2 w-full overflow-hidden rounded-full bg-slate-200", className)}
    >
      <ProgressPrimitive.Indicator
        className="h-full rounded-full bg-brand-600 transition-[width] duration-150 ease-out"
        style={{ width: `${value}%` }}
      />
    </ProgressPrimitive.Root>
  );
}
