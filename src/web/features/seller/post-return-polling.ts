import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { BILLING_MESSAGES, POST_CHECKOUT_POLL, type SellerStatus } from "../../../contracts/seller";
import { pollUntil } from "../../lib/poll";
import { sellerStatusQuery } from "../../lib/seller-status";

/** Back from Stripe: `?subscription=success` (plan checkout) or `?stripe_connect=success` (onboarding). */
export type ReturnFrom = "subscription" | "stripe_connect";

export function returnFrom(params: URLSearchParams): ReturnFrom | null {
  if (params.get("subscription") === "success") return "subscription";
  if (params.get("stripe_connect") === "success") return "stripe_connect";
  return null;
}

/** What the return waits for: an active plan, or finished Connect onboarding. */
export function isSettled(from: ReturnFrom, status: SellerStatus): boolean {
  return from === "subscription" ? status.standing === "active" : status.payouts.onboardingComplete;
}

function toastOutcome(from: ReturnFrom, outcome: "done" | "timedOut"): void {
  if (from !== "stripe_connect") return;
  if (outcome === "done") {
    toast.success(BILLING_MESSAGES.stripeConnectedTitle, {
      id: "stripe-connected",
      description: BILLING_MESSAGES.stripeConnected,
    });
  } else {
    toast.warning(BILLING_MESSAGES.connectSlowTitle, {
      id: "stripe-connect-slow",
      description: BILLING_MESSAGES.connectSlow,
    });
  }
}

/** The search string without the `from` parameter, for replacing the current history entry. */
export function withoutReturnParam(search: string, from: ReturnFrom): string {
  const params = new URLSearchParams(search);
  params.delete(from);
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}

/**
 * product rules, States and transitions: after returning from Stripe, poll the seller's status every second, up to 30
 * times. On success the query parameter is removed (and Connect toasts 'Stripe Connected!'); on
 * timeout polling stops (Connect toasts 'Taking longer than expected'). Each poll refreshes the
 * status query, so the gates follow along; a realtime update that settles it ends the wait at once.
 */
export function usePostReturnPolling(
  userId: string,
  status: SellerStatus | undefined,
): { from: ReturnFrom | null; polling: boolean } {
  const [params] = useSearchParams();
  const from = returnFrom(params);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [timedOutFor, setTimedOutFor] = useState<ReturnFrom | null>(null);
  const active = from !== null && timedOutFor !== from;

  useEffect(() => {
    if (!from || !active) return;
    const controller = new AbortController();
    const query = sellerStatusQuery(userId);
    let looked = false;
    void pollUntil({
      // The first look may use the status the page is loading anyway; later ones ask the server.
      check: () => {
        if (looked) return queryClient.fetchQuery({ ...query, staleTime: 0 });
        looked = true;
        return queryClient.fetchQuery(query);
      },
      isDone: (current) => isSettled(from, current),
      intervalMs: POST_CHECKOUT_POLL.intervalMs,
      maxAttempts: POST_CHECKOUT_POLL.maxAttempts,
      signal: controller.signal,
    }).then((outcome) => {
      if (outcome === "aborted") return;
      toastOutcome(from, outcome);
      if (outcome === "timedOut") setTimedOutFor(from);
      else void navigate({ search: withoutReturnParam(window.location.search, from) }, { replace: true });
    });
    return () => controller.abort();
  }, [from, active, userId, queryClient, navigate]);

  const settled = from !== null && status !== undefined && isSettled(from, status);
  return { from, polling: active && !settled };
}
