import { ANALYTICS_PERIOD_LABELS, type SellerAnalytics } from "../../../contracts/analytics";
import { useStoreCurrency } from "../../lib/store-currency";
import { membershipFigures } from "./analytics-format";
import { TotalCard } from "./total-card";

/**
 * Memberships on the analytics page, when the seller has had members: MRR and paying members now,
 * then new members, churned members and renewal revenue within the chosen period.
 */
export function MembershipTotals({ data }: { data: SellerAnalytics }) {
  const currency = useStoreCurrency();
  if (!data.memberships) return null;
  const figures = membershipFigures(data.memberships, ANALYTICS_PERIOD_LABELS[data.period], currency);
  return (
    <section aria-labelledby="analytics-memberships" className="space-y-3">
      <div>
        <h2 id="analytics-memberships" className="text-lg font-semibold tracking-tight text-ink">
          Memberships
        </h2>
        <p className="mt-1 text-sm text-muted">
          MRR counts a yearly price as a twelfth each month. Renewals are every paid period after a member's
          first.
        </p>
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5 lg:gap-4">
        {figures.map((figure) => (
          <TotalCard key={figure.title} {...figure} />
        ))}
      </div>
    </section>
  );
}
