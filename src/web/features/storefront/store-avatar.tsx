import { Store } from "lucide-react";
import { cn } from "../../lib/utils";

/** The seller's picture or logo, or a store icon when there is none. Decorative next to the store's name. */
export function StoreAvatar({ url, className }: { url: string | null; className?: string }) {
  return (
    <span
      className={cn(
        "flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-brand-50 text-brand-600 ring-1 ring-line",
        className,
      )}
    >
      {url ? (
        <img src={url} alt="" className="size-full object-cover" />
      ) : (
        <Store className="size-1/2" aria-hidden="true" />
      )}
    </span>
  );
}
