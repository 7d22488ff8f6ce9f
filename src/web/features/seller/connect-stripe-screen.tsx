import { ArrowRight, BadgePercent, Banknote, Check, Landmark, ShieldCheck } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { GateScreen } from "./gate-screen";
import { useStripeRedirect } from "./stripe-redirect";

const BENEFITS = [
  {
    icon: BadgePercent,
    title: "0% platform fee",
    body: "We never take a cut of your sales. Only Stripe's standard processing fee applies.",
  },
  {
    icon: Banknote,
    title: "Paid straight to you",
    body: "Buyers pay through your own Stripe account, and payouts go directly to your bank.",
  },
  {
    icon: ShieldCheck,
    title: "Your account, your data",
    body: "You keep full control of your Stripe dashboard, customers and payouts.",
  },
] as const;

/**
 * Plan is active but payouts are not set up: send the seller to Stripe Connect onboarding. The
 * action comes first, so it is on screen without scrolling on a phone; the reasons follow.
 */
export function ConnectStripeScreen({ userId, accountCreated }: { userId: string; accountCreated: boolean }) {
  const onboarding = useStripeRedirect("onboarding", userId);

  return (
    <GateScreen icon={Landmark} eyebrow="Step 2 of 2" title="Connect Your Stripe Account">
      <Card className="flex flex-col gap-5 p-6 sm:p-8 md:flex-row md:items-center md:justify-between">
        <div className="max-w-xl">
          <p className="font-semibold text-ink">
            {accountCreated ? "Continue where you left off" : "One last step: connect Stripe"}
          </p>
          <p className="mt-1 text-sm leading-relaxed text-muted">
            {accountCreated
              ? "You've started setting up Stripe. Pick up where you stopped to finish onboarding."
              : "Your subscription is active. Connect a Stripe account so you can accept payments: an existing one or a new one, in a few minutes."}
          </p>
          <p className="mt-2 flex items-start gap-1.5 text-sm text-muted">
            <Check className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-hidden="true" />
            Stripe handles identity checks and bank details securely.
          </p>
        </div>
        <Button
          size="lg"
          onClick={onboarding.go}
          disabled={onboarding.busy}
          className="w-full md:w-auto"
          aria-busy={onboarding.busy || undefined}
        >
          {onboarding.busy ? "Connecting..." : "Connect Stripe"}
          {!onboarding.busy && <ArrowRight aria-hidden="true" />}
        </Button>
      </Card>
      <ul className="mt-6 grid gap-4 sm:grid-cols-3">
        {BENEFITS.map(({ icon: Icon, title, body }) => (
          <li key={title}>
            <Card className="h-full p-5">
              <Icon className="size-5 text-brand-600" aria-hidden="true" />
              <p className="mt-3 font-semibold text-ink">{title}</p>
              <p className="mt-1 text-sm leading-relaxed text-muted">{body}</p>
            </Card>
          </li>
        ))}
      </ul>
    </GateScreen>
  );
}
