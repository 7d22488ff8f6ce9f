import { useEffect, useState } from "react";
import { type BuyerPurchase, successLookupSchema } from "../../../contracts/orders";
import { api } from "../../lib/api";
import { pollForOrder } from "./poll-for-order";

export type OrderLookup =
  | { state: "processing" }
  | { state: "found"; purchase: BuyerPurchase }
  | { state: "notFound" };

// A 404 is the expected answer until the payment is confirmed; other failures are only logged here.
const lookupOrder = (sessionId: string, signal: AbortSignal) =>
  api(`/api/orders/by-session/${encodeURIComponent(sessionId)}`, {
    schema: successLookupSchema,
    signal,
    quiet: true,
  });

/** The order of a Checkout session, polled as SPEC section 4 says; no session id is not found at once. */
export function useOrderLookup(sessionId: string | null): OrderLookup {
  const [result, setResult] = useState<OrderLookup>({ state: "processing" });
  useEffect(() => {
    if (!sessionId) return;
    setResult({ state: "processing" });
    const controller = new AbortController();
    void pollForOrder(() => lookupOrder(sessionId, controller.signal), controller.signal).then((found) => {
      if (found === "aborted") return;
      setResult(found ? { state: "found", ...found } : { state: "notFound" });
    });
    return () => controller.abort();
  }, [sessionId]);
  return sessionId ? result : { state: "notFound" };
}
