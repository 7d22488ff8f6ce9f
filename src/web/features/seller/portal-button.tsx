import type { ReactNode } from "react";
import { Button, type ButtonProps } from "../../components/ui/button";
import { useStripeRedirect } from "./stripe-redirect";

/** Opens the Stripe billing portal (Manage Billing, Cancel Subscription). */
export function PortalButton({
  userId,
  children,
  ...props
}: { userId: string; children: ReactNode } & Omit<ButtonProps, "onClick" | "children">) {
  const portal = useStripeRedirect("portal", userId);
  return (
    <Button {...props} onClick={portal.go} disabled={portal.busy} aria-busy={portal.busy || undefined}>
      {portal.busy ? "Opening..." : children}
    </Button>
  );
}
