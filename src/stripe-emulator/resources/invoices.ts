import { z } from "zod";
import { previewInvoice } from "../actions/invoice-preview.js";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, parameterMissing } from "../errors.js";
import { paginate } from "../lists.js";
import { subscriptionPeriod } from "../objects/subscription.js";
import { boolean, inRange, integer, list, listParams, parseParams, range, text } from "../params.js";

const listSchema = z.strictObject({
  ...listParams,
  customer: text().optional(),
  subscription: text().optional(),
  status: z.enum(["draft", "open", "paid", "uncollectible", "void"]).optional(),
  collection_method: z.enum(["charge_automatically", "send_invoice"]).optional(),
  created: range().optional(),
});

const previewSchema = z.strictObject({
  customer: text().optional(),
  subscription: text().optional(),
  subscription_details: z
    .strictObject({
      items: list(
        z.strictObject({ id: text().optional(), price: text().optional(), quantity: integer().optional() }),
      ).optional(),
      proration_behavior: z.enum(["always_invoice", "create_prorations", "none"]).optional(),
      proration_date: integer().optional(),
    })
    .optional(),
});

const paymentListSchema = z.strictObject({
  ...listParams,
  invoice: text().optional(),
  status: z.enum(["canceled", "open", "paid"]).optional(),
  payment: z
    .strictObject({ type: z.literal("payment_intent"), payment_intent: text().optional() })
    .optional(),
  created: range().optional(),
});

const invoiceItemListSchema = z.strictObject({
  ...listParams,
  customer: text().optional(),
  invoice: text().optional(),
  pending: boolean().optional(),
  created: range().optional(),
});

/** Invoices (made by subscriptions), their payments, pending invoice items and previews. */
export function registerInvoices(routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;

  routes.get("/v1/invoices/:id", ({ account, id }) => store.get("invoices", account, id, "invoice"));

  routes.get("/v1/invoices", ({ account, params }) => {
    const input = parseParams(listSchema, params);
    const invoices = store
      .list("invoices", account)
      .filter(
        (invoice) =>
          (input.customer === undefined || invoice.customer === input.customer) &&
          (input.subscription === undefined ||
            invoice.parent?.subscription_details?.subscription === input.subscription) &&
          (input.status === undefined || invoice.status === input.status) &&
          (input.collection_method === undefined || invoice.collection_method === input.collection_method) &&
          inRange(invoice.created, input.created),
      );
    return paginate(invoices, input, "/v1/invoices", "invoice");
  });

  routes.post("/v1/invoices/create_preview", ({ account, params }) => {
    const input = parseParams(previewSchema, params);
    if (!input.subscription) {
      if (!input.customer) throw parameterMissing("customer");
      throw invalidRequest(
        "The emulator previews subscription invoices only: pass `subscription`.",
        "subscription",
      );
    }
    const subscription = store.get(
      "subscriptions",
      account,
      input.subscription,
      "subscription",
      "subscription",
    );
    if (input.customer !== undefined && input.customer !== subscription.customer) {
      throw invalidRequest(
        `The subscription ${subscription.id} does not belong to the customer ${input.customer}.`,
        "customer",
      );
    }
    if (subscription.status === "canceled") {
      throw invalidRequest(
        "No upcoming invoices for a canceled subscription.",
        "subscription",
        "invoice_upcoming_none",
      );
    }
    const customer = store.get("customers", account, String(subscription.customer), "customer", "customer");
    const details = input.subscription_details;
    const prorationDate = details?.proration_date ?? emulator.now();
    const { start, end } = subscriptionPeriod(subscription);
    if (prorationDate < start || prorationDate > end) {
      throw invalidRequest(
        "`proration_date` must be within the subscription's current period.",
        "subscription_details[proration_date]",
      );
    }
    return previewInvoice(emulator, account, {
      subscription,
      customer,
      items: details?.items ?? [],
      behavior: details?.proration_behavior ?? "create_prorations",
      prorationDate,
    });
  });

  routes.get("/v1/invoice_payments/:id", ({ account, id }) =>
    store.get("invoicePayments", account, id, "invoice payment"),
  );

  routes.get("/v1/invoice_payments", ({ account, params }) => {
    const input = parseParams(paymentListSchema, params);
    const payments = store
      .list("invoicePayments", account)
      .filter(
        (payment) =>
          (input.invoice === undefined || payment.invoice === input.invoice) &&
          (input.status === undefined || payment.status === input.status) &&
          (input.payment?.payment_intent === undefined ||
            payment.payment.payment_intent === input.payment.payment_intent) &&
          inRange(payment.created, input.created),
      );
    return paginate(payments, input, "/v1/invoice_payments", "invoice payment");
  });

  routes.get("/v1/invoiceitems/:id", ({ account, id }) =>
    store.get("invoiceItems", account, id, "invoiceitem"),
  );

  routes.get("/v1/invoiceitems", ({ account, params }) => {
    const input = parseParams(invoiceItemListSchema, params);
    const items = store
      .list("invoiceItems", account)
      .filter(
        (item) =>
          (input.customer === undefined || item.customer === input.customer) &&
          (input.invoice === undefined || item.invoice === input.invoice) &&
          (input.pending === undefined || (item.invoice === null) === input.pending) &&
          inRange(item.date, input.created),
      );
    return paginate(items, input, "/v1/invoiceitems", "invoiceitem");
  });
}
