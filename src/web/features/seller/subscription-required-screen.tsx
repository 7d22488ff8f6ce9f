import { Check, Lock, RotateCcw } from "lucide-react";
import { Link } from "react-router";
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
    <ol className="space-y-5">
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
      <p className="mt-2 leading-relaxed">
        You can also take them with you:{" "}
        <Link to="/settings" className="font-medium underline underline-offset-2">
          export your store
        </Link>{" "}
        from Settings at any time.
      </p>
    </div>
  );
}

/**
 * No usable plan: the way to subscribe (or fix billing) first, so it is on screen without scrolling
 * on a phone; then what $10/month gives and how the next steps go.
 */
export function SubscriptionRequiredScreen({ userId, status }: { userId: string; status: SellerStatus }) {
  const checkout = useStripeRedirect("checkout", userId);
  const reason = subscribeReason(status);

  return (
    <GateScreen
      icon={reason === "never" ? Lock : RotateCcw}
      eyebrow={reason === "never" ? "Step 1 of 2" : "Store paused"}
      title="Subscription Required"
    >
      <Card className="flex flex-col gap-6 p-6 sm:p-8 md:flex-row md:items-center md:justify-between">
        <div className="max-w-xl">
          <p className="flex items-baseline gap-2">
            <span className="text-3xl font-bold tracking-tight text-ink">$10</span>
            <span className="text-sm text-muted">/month, Unlimited</span>
          </p>
          <p className="mt-2 text-base leading-relaxed text-muted">{INTRO[reason]}</p>
        </div>
        <div className="flex w-full shrink-0 flex-col gap-3 md:w-64">
          <Button size="lg" className="w-full" onClick={checkout.go} disabled={checkout.busy}>
            {checkout.busy ? "Starting checkout..." : "Subscribe Now"}
          </Button>
          {status.hasBillingAccount && (
            <PortalButton userId={userId} variant="secondary" size="lg" className="w-full">
              Manage Billing
            </PortalButton>
          )}
          <p className="text-center text-xs text-muted">Secure payment by Stripe. Cancel anytime.</p>
        </div>
      </Card>
      {reason !== "never" && <PausedStoreNotice status={status} reason={reason} />}
      <div className="mt-8 grid gap-8 md:grid-cols-2">
        <section aria-labelledby="plan-features-title">
          <h2 id="plan-features-title" className="mb-4 text-lg font-semibold text-ink">
            What's included
          </h2>
          <CheckList items={PLAN_FEATURES} icon={Check} />
        </section>
        {reason === "never" && (
          <section aria-labelledby="next-steps-title">
            <h2 id="next-steps-title" className="mb-4 text-lg font-semibold text-ink">
              How it works
            </h2>
            <NextSteps />
          </section>
        )}
      </div>
    </GateScreen>
  );
}
