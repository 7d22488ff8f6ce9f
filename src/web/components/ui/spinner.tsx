import { LoaderCircle } from "lucide-react";
import { cn } from "../../lib/utils";

export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <LoaderCircle aria-hidden="true" className={cn("size-6 animate-spin text-brand-600", className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A centred spinner that fills the space a page would take while it loads. */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <Spinner className="size-8" {...(label ? { label } : {})} />
    </div>
  );
}
