import { Check, Lock, RotateCcw } from "lucide-react";
import { GRACE_PERIOD_DAYS, type SellerStatus } from "../../../contracts/seller";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { CheckList, GateScreen } from "./gate-screen";
import { PortalButton } from "./portal-button";
import { formatDay, pagesPublicUntil, type SubscribeReason, subscribeReason } from "./seller-gate-logic";
import { useStripeRedirect } from "./stripe-redirect";

const PLAN_FEATURES = [
  "Unlimited products and file downloads",
  "0% platform fee on every sale",
  "Payments go straight to your own Stripe account",
  "5 GB of storage for your files",
  "Secure, expiring download links for buyers",
  "Cancel anytime from Manage Billing",
] as const;

const NEXT_STEPS = [
  { title: "Subscribe to the plan", body: "Pay securely with Stripe. Cancel anytime." },
  { title: "Connect your Stripe account", body: "Buyers pay you directly; payouts go to your bank." },
  { title: "Publish and share", body: "Upload your files, set prices and share your store link." },
] as const;

function NextSteps() {
  return (
    <ol className="mt-8 space-y-5">
      {NEXT_STEPS.map((step, index) => (
        <li key={step.title} className="flex gap-4">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-white text-sm font-semibold text-brand-700 ring-1 ring-line">
            {index + 1}
          </span>
          <div>
            <p className="font-medium text-ink">{step.title}</p>
            <p className="mt-0.5 text-sm text-muted">{step.body}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

const INTRO: Record<SubscribeReason, string> = {
  never:
    "Subscribe to the $10/month plan to open your dashboard, publish products and start selling. One flat price, no matter how much you sell.",
  lapsed: `Your last payment didn't go through and the ${GRACE_PERIOD_DAYS}-day grace period is over, so your store is paused.`,
  canceled: "Your subscription has ended, so your store is paused.",
};

function PausedStoreNotice({ status, reason }: { status: SellerStatus; reason: SubscribeReason }) {
  const publicUntil = reason === "canceled" ? pagesPublicUntil(status) : null;
  return (
    <div className="mt-6 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
      <p className="font-semibold">Nothing has been deleted.</p>
      <p className="mt-1 leading-relaxed">
        Your product pages stay visible{publicUntil ? ` until ${formatDay(publicUntil)}` : ""}, but purchases
        are paused. Resubscribe to reactivate your store — your products, files and sales history are all
        still here.
      </p>
    </div>
  );
}

/** No usable plan: what $10/month gives, and the way to subscribe (or fix billing). */
export function SubscriptionRequiredScreen({ userId, status }: { userId: string; status: SellerStatus }) {
  const checkout = useStripeRedirect("checkout", userId);
  const reason = subscribeReason(status);

  return (
    <GateScreen
      icon={reason === "never" ? Lock : RotateCcw}
      eyebrow={reason === "never" ? "Step 1 of 2" : "Store paused"}
      title="Subscription Required"
    >
      <div className="grid gap-6 lg:grid-cols-5">
        <div className="lg:col-span-3">
          <p className="text-base leading-relaxed text-muted">{INTRO[reason]}</p>
          {reason === "never" ? <NextSteps /> : <PausedStoreNotice status={status} reason={reason} />}
        </div>
        <Card className="p-6 lg:col-span-2">
          <p className="text-sm font-medium text-brand-700">Unlimited</p>
          <p className="mt-2 flex items-baseline gap-1">
            <span className="text-4xl font-bold tracking-tight text-ink">$10</span>
            <span className="text-sm text-muted">/month</span>
          </p>
          <div className="mt-6">
            <CheckList items={PLAN_FEATURES} icon={Check} />
          </div>
          <div className="mt-8 flex flex-col gap-3">
            <Button size="lg" className="w-full" onClick={checkout.go} disabled={checkout.busy}>
              {checkout.busy ? "Starting checkout..." : "Subscribe Now"}
            </Button>
            {status.hasBillingAccount && (
              <PortalButton userId={userId} variant="secondary" size="lg" className="w-full">
                Manage Billing
              </PortalButton>
            )}
          </div>
          <p className="mt-4 text-center text-xs text-muted">Secure payment by Stripe. Cancel anytime.</p>
        </Card>
      </div>
    </GateScreen>
  );
}
