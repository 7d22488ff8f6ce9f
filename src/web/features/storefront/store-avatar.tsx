import { Store } from "lucide-react";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import { cn } from "../../lib/utils";

/** The first letter of a store's own name; none for the fallback name, which is not the creator's. */
function initialOf(name: string | null | undefined): string | null {
  if (!name || name === STORE_FALLBACK_NAME) return null;
  const first = Array.from(name.trim())[0];
  return first ? first.toLocaleUpperCase() : null;
}

/**
 * The seller's picture or logo; without one, the initial of the store's name, or a store icon when it
 * has no name of its own. Decorative next to the store's name. The initial scales with the avatar.
 */
export function StoreAvatar({
  url,
  name,
  className,
}: {
  url: string | null;
  name?: string | null;
  className?: string;
}) {
  const initial = url ? null : initialOf(name);
  return (
    <span
      className={cn(
        "@container flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-brand-50 text-brand-700 ring-1 ring-line",
        className,
      )}
    >
      {url ? (
        <img src={url} alt="" className="size-full object-cover" />
      ) : initial ? (
        <span aria-hidden="true" className="text-[45cqw] leading-none font-semibold">
          {initial}
        </span>
      ) : (
        <Store className="size-1/2" aria-hidden="true" />
      )}
    </span>
  );
}
