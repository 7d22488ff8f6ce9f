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

/** Plan is active but payouts are not set up: send the seller to Stripe Connect onboarding. */
export function ConnectStripeScreen({ userId, accountCreated }: { userId: string; accountCreated: boolean }) {
  const onboarding = useStripeRedirect("onboarding", userId);

  return (
    <GateScreen icon={Landmark} eyebrow="Step 2 of 2" title="Connect Your Stripe Account">
      <p className="max-w-2xl text-base leading-relaxed text-muted">
        Your subscription is active. One last step: connect a Stripe account so you can accept payments. It
        takes a few minutes, and you can use an existing Stripe account or create a new one.
      </p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-3">
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
      <Card className="mt-6 flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div>
          {accountCreated ? (
            <>
              <p className="font-semibold text-ink">Continue where you left off</p>
              <p className="mt-1 text-sm text-muted">
                You've started setting up Stripe. Pick up where you stopped to finish onboarding.
              </p>
            </>
          ) : (
            <>
              <p className="font-semibold text-ink">Ready when you are</p>
              <p className="mt-1 flex items-center gap-1.5 text-sm text-muted">
                <Check className="size-4 text-emerald-600" aria-hidden="true" />
                Stripe handles identity checks and bank details securely.
              </p>
            </>
          )}
        </div>
        <Button size="lg" onClick={onboarding.go} disabled={onboarding.busy} className="w-full sm:w-auto">
          {onboarding.busy ? "Connecting..." : "Connect Stripe"}
          {!onboarding.busy && <ArrowRight aria-hidden="true" />}
        </Button>
      </Card>
    </GateScreen>
  );
}
