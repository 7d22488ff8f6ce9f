import { Link } from "react-router";
import { AppShell } from "../../components/layout/app-shell";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { RequireAuth } from "../auth/require-auth";
import { ApiKeysSection } from "./api-keys-section";
import { CheckoutRecoveryCard } from "./checkout-recovery-card";
import { SecuritySection } from "./security-section";
import { StoreCurrencyCard } from "./store-currency-card";
import { StoreExportCard } from "./store-export-card";
import { StoreMovedCard } from "./store-moved-card";
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
      <CheckoutRecoveryCard userId={userId} />
      <SecuritySection />
      <ApiKeysSection userId={userId} />
      <StoreExportCard userId={userId} />
      <StoreMovedCard userId={userId} />
      <Card>
        <CardHeader>
          <CardTitle>Move your store here</CardTitle>
          <CardDescription>
            Bring your products, past orders, license keys and customers from Gumroad, Lemon Squeezy, Payhip
            or Polar, from their export files, or another Flatfee store from its archive.{" "}
            <Link
              to="/settings/import"
              className="font-medium text-brand-700 underline-offset-4 hover:underline"
            >
              Import a store
            </Link>
          </CardDescription>
        </CardHeader>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Standing</CardTitle>
          <CardDescription>
            Whether Flatfee has warned, restricted or suspended your store or taken a product down, and your
            appeals.{" "}
            <Link
              to="/settings/standing"
              className="font-medium text-brand-700 underline-offset-4 hover:underline"
            >
              See your standing
            </Link>
          </CardDescription>
        </CardHeader>
      </Card>
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
