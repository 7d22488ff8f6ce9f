import { useQuery } from "@tanstack/react-query";
import { Eye, HardDrive, type LucideIcon, Package, ShoppingBag, TrendingUp } from "lucide-react";
import type { ReactNode } from "react";
import { dashboardStatsSchema } from "../../../contracts/products";
import { Card } from "../../components/ui/card";
import { Progress } from "../../components/ui/progress";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";
import { useMoney } from "../../lib/store-currency";
import { storageSummary } from "./storage-summary";

function useDashboardStats(userId: string) {
  return useQuery({
    queryKey: sellerKeys.stats(userId),
    queryFn: ({ signal }) => api("/api/dashboard/stats", { schema: dashboardStatsSchema, signal }),
  });
}

function StatCard({
  title,
  icon: Icon,
  value,
  children,
}: {
  title: string;
  icon: LucideIcon;
  value: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card role="group" aria-label={title} className="min-w-0 p-4 last:col-span-2 sm:last:col-span-1 sm:p-5">
      <div className="flex items-center justify-between gap-2">
        <p className="min-w-0 text-sm font-medium text-muted">{title}</p>
        <Icon className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
      </div>
      {/* A big amount wraps inside its card rather than spilling out of it. */}
      <p className="mt-3 text-xl font-bold tracking-tight [overflow-wrap:anywhere] text-ink tabular-nums sm:text-2xl">
        {value}
      </p>
      <div className="mt-1 space-y-1 text-xs text-muted">{children}</div>
    </Card>
  );
}

const NOT_YET = (
  <>
    <span aria-hidden="true">—</span>
    <span className="sr-only">None</span>
  </>
);

/** The five stat cards of product rules, Screens and routes. */
export function DashboardStats({ userId }: { userId: string }) {
  const { data: stats } = useDashboardStats(userId);
  const money = useMoney();
  const storage = stats ? storageSummary(stats.storageUsedBytes, stats.storageQuotaBytes) : null;
  return (
    <section
      aria-label="Store stats"
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5 lg:gap-4"
    >
      <StatCard title="Active Products" icon={Package} value={stats?.activeProducts ?? NOT_YET}>
        <p>of {stats?.totalProducts ?? "—"} total</p>
      </StatCard>
      <StatCard title="Store Views" icon={Eye} value={stats?.storeViews30d ?? NOT_YET}>
        <p>Last 30 days</p>
        <p>{stats?.storeViewsAllTime ?? "—"} all time</p>
      </StatCard>
      <StatCard title="Units Sold" icon={ShoppingBag} value={stats?.unitsSold ?? NOT_YET}>
        <p>All time, refunds excluded</p>
      </StatCard>
      <StatCard
        title="Total Revenue"
        icon={TrendingUp}
        value={stats ? money(stats.totalRevenueCents) : NOT_YET}
      >
        <p>All time, before Stripe fees</p>
      </StatCard>
      <StatCard title="Storage Used" icon={HardDrive} value={storage ? `${storage.usedMb} MB` : NOT_YET}>
        {storage && (
          <>
            <p>
              of {storage.quotaLabel} ({storage.percentLabel})
            </p>
            <Progress value={storage.percent} label="Storage used" className="mt-2 h-1.5" />
          </>
        )}
      </StatCard>
    </section>
  );
}
