import { AppShell } from "../../components/layout/app-shell";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { RequireAuth } from "../auth/require-auth";
import { ApiKeysSection } from "./api-keys-section";
import { SecuritySection } from "./security-section";
import { StoreCurrencyCard } from "./store-currency-card";
import { useStoreSettings } from "./store-settings-api";
import { StoreSettingsForm } from "./store-settings-form";

function Settings({ userId }: { userId: string }) {
  const { data: saved, isPending, isError, refetch } = useStoreSettings(userId);
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-ink">Store Settings</h1>
        <p className="mt-1 text-sm text-muted">Your storefront's name, tagline, description and picture.</p>
      </div>
      {isPending ? (
        <PageSpinner label="Loading your settings" />
      ) : isError ? (
        <RetryNotice message="We couldn't load your store settings." onRetry={() => void refetch()} />
      ) : (
        <StoreSettingsForm userId={userId} saved={saved} />
      )}
      <StoreCurrencyCard userId={userId} />
      <SecuritySection />
      <ApiKeysSection userId={userId} />
    </div>
  );
}

/** /settings: signed-in sellers only (others go to /auth). */
export function SettingsPage() {
  return (
    <RequireAuth>
      {(user) => (
        <AppShell>
          <Settings userId={user.id} />
        </AppShell>
      )}
    </RequireAuth>
  );
}
