import { PackageOpen } from "lucide-react";
import type { ReactNode } from "react";
import type { LibraryResponse } from "../../../contracts/orders";
import { NoticeCard } from "../../components/ui/notice-card";
import { useI18n } from "../../lib/i18n";
import { MembershipCard } from "./membership-card";
import { PurchaseCard } from "./purchase-card";

function NoPurchases() {
  const { t } = useI18n();
  return (
    <NoticeCard icon={PackageOpen} tone="neutral" title={t("library.emptyTitle")} className="max-w-none">
      <p className="mt-2 max-w-sm text-sm text-muted">{t("library.emptyBody")}</p>
    </NoticeCard>
  );
}

/**
 * What the library holds: the memberships first (their files, posts and controls), then the one-time
 * purchases. With no membership, the page is the purchases alone, as it always was.
 */
export function LibraryContent({ data, token }: { data: LibraryResponse; token: string | null }) {
  const { t, rich } = useI18n();
  const hasMemberships = data.memberships.length > 0;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">
          {hasMemberships ? t("library.titleWithMemberships") : t("library.title")}
        </h1>
        <p className="mt-1 text-sm break-all text-muted">
          {rich<ReactNode>("library.boughtWith", {
            email: data.email,
            b: (chunks) => (
              <span key="email" className="font-medium text-ink">
                {chunks}
              </span>
            ),
          })}
        </p>
      </div>
      {hasMemberships && (
        <section aria-labelledby="library-memberships" className="space-y-4">
          <h2 id="library-memberships" className="text-lg font-semibold tracking-tight text-ink">
            {t("library.memberships")}
          </h2>
          <ul className="space-y-4">
            {data.memberships.map((membership) => (
              <li key={membership.id}>
                <MembershipCard membership={membership} token={token} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {hasMemberships ? (
        data.purchases.length > 0 && (
          <section aria-labelledby="library-purchases" className="space-y-4">
            <h2 id="library-purchases" className="text-lg font-semibold tracking-tight text-ink">
              {t("library.purchases")}
            </h2>
            <ul className="space-y-4">
              {data.purchases.map((purchase) => (
                <li key={purchase.orderId}>
                  <PurchaseCard purchase={purchase} headingLevel="h3" />
                </li>
              ))}
            </ul>
          </section>
        )
      ) : data.purchases.length === 0 ? (
        <NoPurchases />
      ) : (
        <ul className="space-y-4">
          {data.purchases.map((purchase) => (
            <li key={purchase.orderId}>
              <PurchaseCard purchase={purchase} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
