import { z } from "zod";
import {
  emitUpdated,
  endSubscription,
  setCancelAtPeriodEnd,
  updateMetadata,
} from "../actions/subscriptions.js";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest } from "../errors.js";
import { paginate } from "../lists.js";
import { boolean, listParams, mergeMetadata, metadata, parseParams, text } from "../params.js";

const updateSchema = z.strictObject({
  cancel_at_period_end: boolean().optional(),
  // No proration happens without price changes, so this is accepted and has no effect.
  proration_behavior: z.enum(["always_invoice", "create_prorations", "none"]).optional(),
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
    if (subscription.status === "canceled" && input.cancel_at_period_end !== undefined) {
      throw invalidRequest(
        "A canceled subscription can only update its cancellation_details and metadata.",
        "cancel_at_period_end",
      );
    }
    if (input.metadata !== undefined) {
      const previous = updateMetadata(subscription, mergeMetadata(subscription.metadata, input.metadata));
      if (input.cancel_at_period_end === undefined)
        emitUpdated(emulator, account, subscription, previous, origin);
    }
    if (input.cancel_at_period_end !== undefined) {
      setCancelAtPeriodEnd(emulator, account, subscription, input.cancel_at_period_end, origin);
    }
    if (input.cancellation_details?.comment !== undefined && subscription.cancellation_details) {
      subscription.cancellation_details.comment = input.cancellation_details.comment;
    }
    store.put("subscriptions", account, subscription);
    return subscription;
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

  routes.get("/v1/invoices/:id", ({ account, id }) => store.get("invoices", account, id, "invoice"));

  routes.get("/v1/invoices", ({ account, params }) => {
    const input = parseParams(
      z.strictObject({ ...listParams, customer: text().optional(), subscription: text().optional() }),
      params,
    );
    const invoices = store
      .list("invoices", account)
      .filter(
        (invoice) =>
          (input.customer === undefined || invoice.customer === input.customer) &&
          (input.subscription === undefined ||
            invoice.parent?.subscription_details?.subscription === input.subscription),
      );
    return paginate(invoices, input, "/v1/invoices", "invoice");
  });
}
