import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import type { StoreSettings } from "../../../contracts/store-settings";
import { StoreAvatar } from "../storefront/store-avatar";

/** Under the dashboard's title: the store's picture and name, linking to the store as buyers see it. */
export function YourStoreLine({ userId, settings }: { userId: string; settings: StoreSettings | undefined }) {
  if (!settings) return <p className="mt-2 h-6" aria-hidden="true" />;
  const name = settings.storeName ?? STORE_FALLBACK_NAME;
  return (
    <p className="mt-2 flex min-w-0 items-center gap-2 text-sm text-muted">
      <StoreAvatar url={settings.profilePictureUrl} name={settings.storeName} className="size-6" />
      <span className="shrink-0">Your store:</span>
      <a
        href={`/store/${userId}`}
        title={name}
        data-testid="your-store-name"
        className="min-w-0 truncate rounded font-semibold text-ink underline-offset-4 outline-none hover:text-brand-700 hover:underline focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        {name}
      </a>
    </p>
  );
}
