import { Package } from "lucide-react";
import type { CoverImage } from "../../../contracts/products";
import { useI18n } from "../../lib/i18n";
import { cn } from "../../lib/utils";

/**
 * A product's cover at the Open Graph ratio, or a placeholder icon when it has none. `cover` offers
 * every size (srcset) with the intrinsic width and height, so the page keeps its layout while the image
 * loads; `url` is a single image (a purchase's thumbnail). `priority` is for the first cover a visitor
 * sees (the product page's, a store's first row): fetched at once and first; the others wait until they
 * come near the screen. `sizes` says how wide the cover is shown, so the browser picks the right size.
 */
export function ProductCover({
  cover,
  url,
  title,
  priority = false,
  sizes = "100vw",
  className,
  iconClassName,
}: {
  cover?: CoverImage | null;
  url?: string | null;
  title: string;
  priority?: boolean;
  sizes?: string;
  className?: string;
  iconClassName?: string;
}) {
  const { t, locale } = useI18n();
  const loading = priority
    ? ({ loading: "eager", fetchPriority: "high" } as const)
    : ({ loading: "lazy" } as const);
  if (cover) {
    return (
      <img
        src={cover.src}
        srcSet={cover.srcSet}
        sizes={sizes}
        width={cover.width}
        height={cover.height}
        // The API's alt is "Cover of {title}" in English: a page in another language says it in its own.
        alt={locale === "en" ? cover.alt : t("product.coverOf", { title })}
        decoding="async"
        {...loading}
        className={cn("object-cover", className)}
      />
    );
  }
  if (url) {
    return (
      <img
        src={url}
        alt={t("product.coverOf", { title })}
        decoding="async"
        {...loading}
        className={cn("object-cover", className)}
      />
    );
  }
  return (
    <div
      role="img"
      aria-label={t("product.noCover", { title })}
      className={cn(
        "flex items-center justify-center bg-gradient-to-br from-brand-50 to-slate-100 text-brand-300",
        className,
      )}
    >
      <Package className={cn("size-12", iconClassName)} aria-hidden="true" />
    </div>
  );
}
