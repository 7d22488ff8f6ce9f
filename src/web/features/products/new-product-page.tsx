import { PackagePlus } from "lucide-react";
import { AppShell } from "../../components/layout/app-shell";
import { ComingSoon } from "../../components/layout/coming-soon";
import { RequireAuth } from "../auth/require-auth";

export function NewProductPage() {
  return (
    <RequireAuth>
      <AppShell>
        <ComingSoon
          icon={PackagePlus}
          title="New Product"
          body="Upload a file, set a price and get a shareable link for your product."
        />
      </AppShell>
    </RequireAuth>
  );
}
