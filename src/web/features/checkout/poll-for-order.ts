import { ORDER_POLL } from "../../../contracts/orders";
import { pollUntil } from "../../lib/poll";

/**
 * SPEC section 4: after payment, looks for the order of the checkout session at once and then once
 * a second, up to 10 more times. Answers the order, null when it never showed up, or "aborted".
 */
export async function pollForOrder<T>(
  lookup: () => Promise<T>,
  signal: AbortSignal,
  wait?: (ms: number, signal: AbortSignal) => Promise<void>,
): Promise<T | null | "aborted"> {
  let found: T | null = null;
  const outcome = await pollUntil({
    check: async () => {
      found = await lookup();
      return found;
    },
    isDone: (value) => value !== null,
    intervalMs: ORDER_POLL.intervalMs,
    maxAttempts: ORDER_POLL.maxAttempts,
    signal,
    ...(wait ? { wait } : {}),
  });
  if (outcome === "aborted") return "aborted";
  return outcome === "done" ? found : null;
}
