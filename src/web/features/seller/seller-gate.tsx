import type { ReactNode } from "react";
import { Navigate } from "react-router";
import type { SellerStatus } from "../../../contracts/seller";
import { AppShell } from "../../components/layout/app-shell";
import { PageSpinner } from "../../components/ui/spinner";
import { ApiError } from "../../lib/api";
import { useSellerStatus } from "../../lib/seller-status";
import type { SessionUser } from "../../lib/session";
import { StoreCurrencyProvider } from "../../lib/store-currency";
import { RequireAuth } from "../auth/require-auth";
import { ConnectStripeScreen } from "./connect-stripe-screen";
import { PaymentReceivedScreen } from "./payment-received-screen";
import { usePostReturnPolling } from "./post-return-polling";
import { gateScreen } from "./seller-gate-logic";
import { StatusErrorScreen } from "./status-error-screen";
import { SubscriptionRequiredScreen } from "./subscription-required-screen";

export type SellerContext = { user: SessionUser; status: SellerStatus };

function PlanGate({ user, children }: { user: SessionUser; children: (seller: SellerContext) => ReactNode }) {
  const { data: status, error, isPending, refetch } = useSellerStatus(user.id);
  const { from, polling } = usePostReturnPolling(user.id, status);

  if (polling && from === "subscription") return <PaymentReceivedScreen />;
  if (polling || isPending) return <PageSpinner label="Loading your account" />;
  if (error instanceof ApiError && error.status === 401) return <Navigate to="/auth" replace />;
  if (!status) return <StatusErrorScreen onRetry={() => void refetch()} />;

  switch (gateScreen(status)) {
    case "subscribe":
      return <SubscriptionRequiredScreen userId={user.id} status={status} />;
    case "connect":
      return <ConnectStripeScreen userId={user.id} accountCreated={status.payouts.accountCreated} />;
    case "open":
      return (
        <StoreCurrencyProvider currency={status.storeCurrency}>
          {children({ user, status })}
        </StoreCurrencyProvider>
      );
  }
}

/**
 * The gates of /dashboard and /new, in the order of product rules, States and transitions: signed out → /auth; spinner while loading or
 * polling after Stripe; no usable plan → Subscription Required; payouts not set up → Connect. Inside,
 * the store currency is known (useStoreCurrency, useMoney).
 */
export function SellerGate({ children }: { children: (seller: SellerContext) => ReactNode }) {
  return (
    <RequireAuth>
      {(user) => (
        <AppShell>
          <PlanGate user={user}>{children}</PlanGate>
        </AppShell>
      )}
    </RequireAuth>
  );
}
