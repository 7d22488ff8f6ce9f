import { CircleCheck } from "lucide-react";
import { BILLING_MESSAGES } from "../../../contracts/seller";
import { Card } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";

/** Shown while we wait for the plan to turn active after Checkout (product rules, States and transitions). */
export function PaymentReceivedScreen() {
  return (
    <Card className="mx-auto flex max-w-lg flex-col items-center px-6 py-14 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-emerald-50 text-emerald-600 ring-1 ring-emerald-100">
        <CircleCheck className="size-7" aria-hidden="true" />
      </span>
      <div role="status" className="mt-5">
        <h1 className="text-lg font-semibold text-ink">{BILLING_MESSAGES.paymentSuccessful}</h1>
      </div>
      <p className="mt-2 max-w-sm text-sm text-muted">
        Stripe is confirming your subscription. This usually takes a few seconds.
      </p>
      <Spinner className="mt-6" label="Setting up your account" />
    </Card>
  );
}
