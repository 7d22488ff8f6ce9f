import { CalendarClock, CreditCard } from "lucide-react";
import type { SellerStatus } from "../../../contracts/seller";
import { Badge } from "../../components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { PortalButton } from "../seller/portal-button";
import { renewalLine, statusLabel, statusTone } from "./subscription-summary";

/** The seller's plan: status, renewal, and the way to the billing portal. */
export function SubscriptionCard({ userId, status }: { userId: string; status: SellerStatus }) {
  const { subscription } = status;
  const renewal = subscription ? renewalLine(subscription) : null;
  return (
    <Card role="region" aria-labelledby="subscription-title">
      <CardHeader>
        <div className="flex items-center justify-between gap-3">
          <CardTitle id="subscription-title" className="flex items-center gap-2">
            <CreditCard className="size-5 text-brand-600" aria-hidden="true" />
            Subscription
          </CardTitle>
          {subscription && (
            <Badge tone={statusTone(subscription.status)} data-testid="subscription-status">
              {statusLabel(subscription.status)}
            </Badge>
          )}
        </div>
        <CardDescription>$10/month Unlimited</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {renewal && (
          <p className="flex items-center gap-2 text-sm text-ink" data-testid="subscription-renewal">
            <CalendarClock className="size-4 text-muted" aria-hidden="true" />
            {renewal}
          </p>
        )}
        <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
          <PortalButton userId={userId} variant="secondary">
            Manage Billing
          </PortalButton>
          <PortalButton
            userId={userId}
            variant="ghost"
            className="text-red-700 hover:bg-red-50 hover:text-red-800"
          >
            Cancel Subscription
          </PortalButton>
        </div>
      </CardContent>
    </Card>
  );
}
