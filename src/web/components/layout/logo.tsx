import { Link } from "react-router";
import { cn } from "../../lib/utils";

export function Logo({ className }: { className?: string }) {
  return (
    <Link
      to="/"
      className={cn(
        "inline-flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight text-ink outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2",
        className,
      )}
    >
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-brand-600" />
        <path d="M10 9h13v3.5h-9v3h8v3.5h-8V24h-4z" fill="white" />
      </svg>
      Flatfee
    </Link>
  );
}
