import { TriangleAlert } from "lucide-react";
import { GRACE_PERIOD_DAYS, type SellerStatus } from "../../../contracts/seller";
import { PortalButton } from "../seller/portal-button";
import { formatDay } from "../seller/seller-gate-logic";

/** Payment failed less than 3 days ago: all still works, but the card needs fixing (DESIGN section 4). */
export function GraceBanner({ userId, status }: { userId: string; status: SellerStatus }) {
  const graceEndsAt = status.subscription?.graceEndsAt;
  return (
    <div
      role="alert"
      className="flex flex-col gap-4 rounded-2xl border border-amber-200 bg-amber-50 p-5 text-amber-900 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex gap-3">
        <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden="true" />
        <div>
          <p className="font-semibold">Your last payment failed</p>
          <p className="mt-1 text-sm leading-relaxed">
            Update your card{" "}
            {graceEndsAt ? `by ${formatDay(graceEndsAt)}` : `within ${GRACE_PERIOD_DAYS} days`} to keep
            selling. After that, purchases on your store are paused until the payment goes through.
          </p>
        </div>
      </div>
      <PortalButton userId={userId} className="w-full sm:w-auto">
        Manage Billing
      </PortalButton>
    </div>
  );
}
