import {
  BadgeCheck,
  ChartColumn,
  Compass,
  Flag,
  Landmark,
  LayoutDashboard,
  type LucideIcon,
  Newspaper,
  PackagePlus,
  Receipt,
  ReceiptText,
  Store,
  TicketPercent,
  Users,
  Webhook,
} from "lucide-react";

export interface SellerLink {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Marked only on this exact address (the dashboard, whose address starts every other page's). */
  end?: boolean;
}

/**
 * Every section of the seller app, in the groups the navigation shows. A new section (Memberships, Tax,
 * Invoices...) is a line here; the dashboard is an overview, not a door to them.
 */
export interface NavSection {
  label: string;
  links: SellerLink[];
}

export const SELLER_SECTIONS: NavSection[] = [
  {
    label: "Store",
    links: [
      { to: "/dashboard", label: "Dashboard", icon: LayoutDashboard, end: true },
      { to: "/new", label: "New Product", icon: PackagePlus },
      { to: "/settings", label: "Store Settings", icon: Store },
      { to: "/dashboard/reports", label: "Reports", icon: Flag },
    ],
  },
  {
    label: "Sales",
    links: [
      { to: "/dashboard/customers", label: "Customers", icon: Users },
      { to: "/dashboard/members", label: "Members", icon: BadgeCheck },
      { to: "/dashboard/posts", label: "Posts", icon: Newspaper },
      { to: "/dashboard/analytics", label: "Analytics", icon: ChartColumn },
      { to: "/dashboard/discounts", label: "Discount codes", icon: TicketPercent },
    ],
  },
  {
    label: "Tax",
    links: [
      { to: "/dashboard/tax", label: "Tax settings", icon: Receipt, end: true },
      { to: "/dashboard/invoices", label: "Invoices", icon: ReceiptText },
      { to: "/dashboard/tax/report", label: "Tax report", icon: Landmark },
      { to: "/dashboard/tax/guide", label: "Tax guide", icon: Compass },
    ],
  },
  {
    label: "Developers",
    links: [{ to: "/dashboard/webhooks", label: "Webhooks", icon: Webhook }],
  },
];
