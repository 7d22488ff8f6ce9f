import { Settings } from "lucide-react";
import { AppShell } from "../../components/layout/app-shell";
import { ComingSoon } from "../../components/layout/coming-soon";
import { RequireAuth } from "../auth/require-auth";

export function SettingsPage() {
  return (
    <RequireAuth>
      <AppShell>
        <ComingSoon
          icon={Settings}
          title="Store Settings"
          body="Set your store name, tagline, description and profile picture."
        />
      </AppShell>
    </RequireAuth>
  );
}
