import { FileWarning, Gauge, Gavel, ScrollText, Users } from "lucide-react";
import type { NavSection } from "../../components/layout/seller-sections";

/** The operator console's sections (docs/operator.md); a new one is a line here and a route in router.tsx. */
export const OPERATOR_SECTIONS: NavSection[] = [
  {
    label: "Operator",
    links: [
      { to: "/operator", label: "Overview", icon: Gauge, end: true },
      { to: "/operator/sellers", label: "Sellers", icon: Users },
      { to: "/operator/reports", label: "Reports", icon: FileWarning },
      { to: "/operator/appeals", label: "Appeals", icon: Gavel },
      { to: "/operator/audit", label: "Audit log", icon: ScrollText },
    ],
  },
];
