import { Eye, HardDrive, type LucideIcon, Package, ShoppingBag, TrendingUp } from "lucide-react";
import { Card } from "../../components/ui/card";

/** The five stat cards of SPEC section 2. Their numbers arrive with products and sales. */
const STATS: readonly { title: string; caption: string; icon: LucideIcon }[] = [
  { title: "Active Products", caption: "of — total", icon: Package },
  { title: "Store Views", caption: "Last 30 days", icon: Eye },
  { title: "Units Sold", caption: "All time", icon: ShoppingBag },
  { title: "Total Revenue", caption: "All time", icon: TrendingUp },
  { title: "Storage Used", caption: "of 5 GB", icon: HardDrive },
];

export function StatsGrid() {
  return (
    <section
      aria-label="Store stats"
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5 lg:gap-4"
    >
      {STATS.map(({ title, caption, icon: Icon }) => (
        <Card key={title} className="p-4 last:col-span-2 sm:last:col-span-1 sm:p-5">
          <div className="flex items-center justify-between gap-2">
            <p className="text-sm font-medium text-muted">{title}</p>
            <Icon className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
          </div>
          <p className="mt-3 text-2xl font-bold tracking-tight text-slate-300">
            <span aria-hidden="true">—</span>
            <span className="sr-only">Not available yet</span>
          </p>
          <p className="mt-1 text-xs text-muted">{caption}</p>
        </Card>
      ))}
    </section>
  );
}
