import type Stripe from "stripe";
import { z } from "zod";
import { noticeTrialEnding } from "../actions/automatic-billing.js";
import { changeItems, itemChanges } from "../actions/prorations.js";
import {
  emitUpdated,
  endSubscription,
  renewSubscription,
  setCancelAtPeriodEnd,
  updateMetadata,
} from "../actions/subscriptions.js";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest } from "../errors.js";
import { paginate } from "../lists.js";
import { setSubscriptionPeriod, subscriptionPeriod } from "../objects/subscription.js";
import { boolean, integer, list, listParams, mergeMetadata, metadata, parseParams, text } from "../params.js";
import { snapshot } from "../state/snapshot.js";

const updateSchema = z.strictObject({
  cancel_at_period_end: boolean().optional(),
  proration_behavior: z.enum(["always_invoice", "create_prorations", "none"]).optional(),
  proration_date: integer().optional(),
  items: list(
    z.strictObject({ id: text().optional(), price: text().optional(), quantity: integer().optional() }),
  ).optional(),
  trial_end: z.union([z.literal("now"), integer()]).optional(),
  // Accepted; payments in the emulator succeed unless the control API says otherwise.
  payment_behavior: z
    .enum(["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"])
    .optional(),
  metadata: metadata().optional(),
  cancellation_details: z
    .strictObject({ comment: text().optional(), feedback: text().optional() })
    .optional(),
});

const cancelSchema = z.strictObject({
  invoice_now: boolean().optional(),
  prorate: boolean().optional(),
  cancellation_details: z
    .strictObject({ comment: text().optional(), feedback: text().optional() })
    .optional(),
});

const listSchema = z.strictObject({
  ...listParams,
  customer: text().optional(),
  price: text().optional(),
  status: z
    .enum(["active", "all", "canceled", "ended", "incomplete", "past_due", "trialing", "unpaid"])
    .optional(),
});

export function registerSubscriptions(routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;

  routes.get("/v1/subscriptions/:id", ({ account, id }) =>
    store.get("subscriptions", account, id, "subscription"),
  );

  routes.post("/v1/subscriptions/:id", ({ account, id, params, origin }) => {
    const subscription = store.get("subscriptions", account, id, "subscription");
    const input = parseParams(updateSchema, params);
    if (subscription.status === "canceled") {
      const changing = (["cancel_at_period_end", "items", "trial_end"] as const).find(
        (key) => input[key] !== undefined,
      );
      if (changing) {
        throw invalidRequest(
          "A canceled subscription can only update its cancellation_details and metadata.",
          changing,
        );
      }
    }
    const changes = input.items ? itemChanges(emulator, account, subscription, input.items, "items") : [];
    if (input.trial_end !== undefined && subscription.status !== "trialing") {
      throw invalidRequest("The emulator changes `trial_end` only on a trialing subscription.", "trial_end");
    }
    if (input.trial_end !== undefined && changes.length > 0) {
      throw invalidRequest("Change the trial and the items in separate requests.", "trial_end");
    }
    const now = emulator.now();
    // Everything is checked before anything changes: a refused request changes nothing.
    const prorationDate = input.proration_date ?? now;
    const { start, end } = subscriptionPeriod(subscription);
    if (changes.length > 0 && (prorationDate < start || prorationDate > end)) {
      throw invalidRequest(
        "`proration_date` must be within the subscription's current period.",
        "proration_date",
      );
    }
    if (typeof input.trial_end === "number" && input.trial_end < now) {
      throw invalidRequest("`trial_end` must be in the future, or `now`.", "trial_end");
    }
    let previous: Partial<Stripe.Subscription> = {};
    if (input.metadata !== undefined) {
      previous = updateMetadata(subscription, mergeMetadata(subscription.metadata, input.metadata));
    }
    if (input.cancel_at_period_end !== undefined) {
      if (input.metadata !== undefined) store.put("subscriptions", account, subscription);
      setCancelAtPeriodEnd(emulator, account, subscription, input.cancel_at_period_end, origin);
      previous = {};
    }
    if (input.cancellation_details?.comment !== undefined && subscription.cancellation_details) {
      subscription.cancellation_details.comment = input.cancellation_details.comment;
    }
    if (changes.length > 0) {
      const behavior = input.proration_behavior ?? "create_prorations";
      return changeItems(emulator, account, subscription, changes, behavior, prorationDate, origin, previous);
    }
    if (input.trial_end !== undefined) return changeTrialEnd(subscription, input.trial_end, previous);
    if (input.metadata !== undefined && input.cancel_at_period_end === undefined)
      emitUpdated(emulator, account, subscription, previous, origin);
    store.put("subscriptions", account, subscription);
    return subscription;

    /** A trial moved (the current period ends with it) or ended now (charged at once). */
    function changeTrialEnd(
      trialing: Stripe.Subscription,
      trialEnd: number | "now",
      before: Partial<Stripe.Subscription>,
    ): Stripe.Subscription {
      const newEnd = trialEnd === "now" ? now : trialEnd;
      const changed = {
        ...before,
        trial_end: trialing.trial_end,
        billing_cycle_anchor: trialing.billing_cycle_anchor,
        items: snapshot(trialing.items),
      };
      trialing.trial_end = newEnd;
      trialing.billing_cycle_anchor = newEnd;
      setSubscriptionPeriod(trialing, start, newEnd);
      // Stripe announces the trial's end at once when it ends now or has less than three days left.
      noticeTrialEnding(emulator, account, trialing, origin);
      if (trialEnd === "now") {
        store.put("subscriptions", account, trialing);
        return renewSubscription(emulator, account, trialing, "paid", false, origin);
      }
      emitUpdated(emulator, account, trialing, changed, origin);
      return trialing;
    }
  });

  routes.delete("/v1/subscriptions/:id", ({ account, id, params, origin }) => {
    const subscription = store.get("subscriptions", account, id, "subscription");
    const input = parseParams(cancelSchema, params);
    // Set before it ends, so `customer.subscription.deleted` carries the comment too.
    const details = subscription.cancellation_details;
    if (subscription.status !== "canceled" && details && input.cancellation_details?.comment !== undefined) {
      details.comment = input.cancellation_details.comment;
    }
    return endSubscription(emulator, account, subscription, "cancellation_requested", origin);
  });

  routes.get("/v1/subscriptions", ({ account, params }) => {
    const input = parseParams(listSchema, params);
    const status = input.status;
    const subscriptions = store
      .list("subscriptions", account)
      .filter(
        (subscription) =>
          (input.customer === undefined || subscription.customer === input.customer) &&
          (input.price === undefined ||
            subscription.items.data.some((item) => item.price.id === input.price)) &&
          (status === "all" ||
            (status === undefined ? subscription.status !== "canceled" : subscription.status === status) ||
            (status === "ended" && subscription.status === "canceled")),
      );
    return paginate(subscriptions, input, "/v1/subscriptions", "subscription");
  });
}
