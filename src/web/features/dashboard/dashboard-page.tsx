import { DashboardStats } from "../products/dashboard-stats";
import { RecentProducts } from "../products/recent-products";
import { CustomerSales } from "../sales/customer-sales";
import { type SellerContext, SellerGate } from "../seller/seller-gate";
import { GraceBanner } from "./grace-banner";
import { HelpCard } from "./help-card";
import { StoreActions } from "./store-actions";
import { SubscriptionCard } from "./subscription-card";

function Dashboard({ user, status }: SellerContext) {
  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-ink">Dashboard</h1>
          <p className="mt-1 text-sm text-muted">Your store, products and sales at a glance.</p>
        </div>
        <StoreActions userId={user.id} />
      </div>
      {status.standing === "grace" && <GraceBanner userId={user.id} status={status} />}
      <DashboardStats userId={user.id} />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <RecentProducts userId={user.id} />
          <CustomerSales userId={user.id} />
        </div>
        <div className="space-y-6">
          <SubscriptionCard userId={user.id} status={status} />
          <HelpCard />
        </div>
      </div>
    </div>
  );
}

export function DashboardPage() {
  return <SellerGate>{(seller) => <Dashboard {...seller} />}</SellerGate>;
}
