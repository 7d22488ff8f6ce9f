import { addDays, format } from "date-fns";
import { PAGES_PUBLIC_AFTER_CANCEL_DAYS, type SellerStatus } from "../../../contracts/seller";

/** Which screen /dashboard and /new show, in the order of product rules, States and transitions. */
export type GateScreen = "subscribe" | "connect" | "open";

export function gateScreen(status: SellerStatus): GateScreen {
  if (!status.canUseDashboard) return "subscribe";
  if (!status.payouts.onboardingComplete) return "connect";
  return "open";
}

/** Why the Subscription Required screen is shown. */
export type SubscribeReason = "never" | "lapsed" | "canceled";

export function subscribeReason(status: SellerStatus): SubscribeReason {
  if (status.standing === "canceled") return "canceled";
  if (status.standing === "lapsed" || status.standing === "grace") return "lapsed";
  return "never";
}

/** The date a canceled seller's pages stop being public, when known. */
export function pagesPublicUntil(status: SellerStatus): Date | null {
  const canceledAt = status.subscription?.canceledAt;
  return canceledAt ? addDays(new Date(canceledAt), PAGES_PUBLIC_AFTER_CANCEL_DAYS) : null;
}

export function formatDay(iso: string | Date): string {
  return format(typeof iso === "string" ? new Date(iso) : iso, "MMMM d, yyyy");
}
