import { Package } from "lucide-react";
import { cn } from "../../lib/utils";

/** A product's cover at the Open Graph ratio, or a placeholder icon when it has none. */
export function ProductCover({
  url,
  title,
  className,
  iconClassName,
}: {
  url: string | null;
  title: string;
  className?: string;
  iconClassName?: string;
}) {
  if (url) {
    return <img src={url} alt={`Cover of ${title}`} className={cn("object-cover", className)} />;
  }
  return (
    <div
      role="img"
      aria-label={`${title} has no cover image`}
      className={cn(
        "flex items-center justify-center bg-gradient-to-br from-brand-50 to-slate-100 text-brand-300",
        className,
      )}
    >
      <Package className={cn("size-12", iconClassName)} aria-hidden="true" />
    </div>
  );
}
