import { LayoutDashboard } from "lucide-react";
import { AppShell } from "../../components/layout/app-shell";
import { ComingSoon } from "../../components/layout/coming-soon";
import { RequireAuth } from "../auth/require-auth";

export function DashboardPage() {
  return (
    <RequireAuth>
      <AppShell>
        <ComingSoon
          icon={LayoutDashboard}
          title="Dashboard"
          body="Your products, sales and store stats will appear here."
        />
      </AppShell>
    </RequireAuth>
  );
}
