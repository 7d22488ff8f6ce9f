import { checkoutVisitorKey } from "../../http/visitor";
import type { AppContext } from "../feature";
import type { CheckoutRouteDeps } from "./buyer-actions";

/** What Buy Now and free claims need, from the app's context (the JSON routes and the pages' forms). */
export const checkoutDeps = (context: AppContext): CheckoutRouteDeps => ({
  ...context.fulfilment,
  db: context.db,
  events: context.events,
  visitorKey: checkoutVisitorKey(context.authSecret),
  now: context.now,
  vatChecker: context.tax.vatChecker,
  ...(context.tax.buyerCountryHeader ? { buyerCountryHeader: context.tax.buyerCountryHeader } : {}),
});
