import { DashboardStats } from "../products/dashboard-stats";
import { RecentProducts } from "../products/recent-products";
import { CustomerSales } from "../sales/customer-sales";
import { type SellerContext, SellerGate } from "../seller/seller-gate";
import { useStoreSettings } from "../settings/store-settings-api";
import { GraceBanner } from "./grace-banner";
import { HelpCard } from "./help-card";
import { NameYourStoreCard } from "./name-your-store-card";
import { StoreActions } from "./store-actions";
import { SubscriptionCard } from "./subscription-card";
import { YourStoreLine } from "./your-store-line";

// An overview: the sections themselves are in the seller navigation (app-shell.tsx). Grid and flex
// children get min-w-0 so a long title or email truncates instead of widening the page.
function Dashboard({ user, status }: SellerContext) {
  const { data: storeSettings } = useStoreSettings(user.id);
  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight text-ink">Dashboard</h1>
          <YourStoreLine userId={user.id} settings={storeSettings} />
        </div>
        <StoreActions userId={user.id} />
      </div>
      {status.standing === "grace" && <GraceBanner userId={user.id} status={status} />}
      {storeSettings && storeSettings.storeName === null && (
        <NameYourStoreCard user={user} settings={storeSettings} />
      )}
      <DashboardStats userId={user.id} />
      <RecentProducts userId={user.id} />
      <CustomerSales userId={user.id} />
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        <SubscriptionCard userId={user.id} status={status} />
        <HelpCard />
      </div>
    </div>
  );
}

export function DashboardPage() {
  return <SellerGate>{(seller) => <Dashboard {...seller} />}</SellerGate>;
}
