import { Link } from "react-router";
import type { PublicProduct } from "../../../contracts/products";
import { useStoreName } from "../../components/layout/creator-page-shell";
import { useI18n } from "../../lib/i18n";
import { StoreAvatar } from "../storefront/store-avatar";

/** 'Sold by' the store, linking to its storefront: the byline under the product's title. */
export function SellerBlock({ seller }: { seller: PublicProduct["seller"] }) {
  const { t } = useI18n();
  const name = useStoreName()(seller.storeName);
  return (
    <Link
      to={`/store/${seller.id}`}
      className="group inline-flex max-w-full items-center gap-2.5 rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <StoreAvatar url={seller.pictureUrl} name={seller.storeName} className="size-9" />
      <span className="min-w-0">
        <span className="block text-xs text-muted">{t("product.soldBy")}</span>
        <span className="block truncate text-sm font-semibold text-ink group-hover:text-brand-700">
          {name}
        </span>
      </span>
    </Link>
  );
}
