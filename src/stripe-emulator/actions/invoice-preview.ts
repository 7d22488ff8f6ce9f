import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { newId } from "../ids.js";
import { buildInvoice, type InvoiceLineInput, periodLines } from "../objects/invoice.js";
import { planFromPrice } from "../objects/price.js";
import { subscriptionPeriod } from "../objects/subscription.js";
import { addInterval } from "../periods.js";
import { snapshot } from "../state/snapshot.js";
import type { Scope } from "../state/types.js";
import { applyInvoiceTax } from "./invoice-tax.js";
import { activeDiscounts, pendingLines, productNames, subscriptionProductNames } from "./invoices.js";
import { itemChanges, type ProrationBehavior, planChange } from "./prorations.js";

export interface PreviewRequest {
  subscription: Stripe.Subscription;
  customer: Stripe.Customer;
  items: { id?: string | undefined; price?: string | undefined; quantity?: number | undefined }[];
  behavior: ProrationBehavior;
  prorationDate: number;
}

const tmpLineId = () => newId("il_tmp");

/**
 * `invoices.createPreview`: the invoice Stripe would make, stored nowhere and announced to no one. With
 * item changes invoiced at once (`always_invoice`, or a new interval) it is that invoice
 * (`subscription_update`); otherwise it is the next renewal (`upcoming`), with the pending and new
 * prorations and the next period at the new prices. The customer's balance is applied as finalizing
 * would (`amount_due`, `ending_balance`).
 */
export function previewInvoice(emulator: Emulator, account: Scope, request: PreviewRequest): Stripe.Invoice {
  const now = emulator.now();
  const subscription = snapshot(request.subscription);
  const customer = snapshot(request.customer);
  const changes = itemChanges(emulator, account, subscription, request.items, "subscription_details[items]");
  const plan = changes.length
    ? planChange(emulator, account, subscription, changes, request.behavior, request.prorationDate, tmpLineId)
    : { prorations: [], newPeriod: null };
  for (const change of changes) {
    change.item.price = snapshot(change.price);
    change.item.plan = planFromPrice(change.price);
    change.item.quantity = change.quantity;
  }
  const pending = pendingLines(emulator, account, subscription).lines.map((line) => ({
    ...line,
    id: tmpLineId(),
  }));
  const names = {
    ...subscriptionProductNames(emulator, account, subscription),
    ...productNames(
      emulator,
      account,
      request.subscription.items.data.map((item) => item.price),
    ),
  };
  const current = subscriptionPeriod(subscription);
  let lines: InvoiceLineInput[];
  let billingReason: "subscription_update" | "upcoming" = "subscription_update";
  let period = { start: now, end: now };
  if (plan.newPeriod) {
    lines = [...pending, ...plan.prorations, ...periodLines(subscription, plan.newPeriod, names, tmpLineId)];
  } else if (request.behavior === "always_invoice" && plan.prorations.length > 0) {
    lines = [...pending, ...plan.prorations];
  } else {
    billingReason = "upcoming";
    period = current;
    const recurring = subscription.items.data[0]?.price.recurring;
    const next = {
      start: current.end,
      end: addInterval(current.end, recurring?.interval ?? "month", recurring?.interval_count ?? 1),
    };
    lines = [...pending, ...plan.prorations, ...periodLines(subscription, next, names, tmpLineId)];
  }
  const at = billingReason === "upcoming" ? current.end : now;
  const invoice = buildInvoice(newId("upcoming_in"), now, {
    customer,
    subscription,
    billingReason,
    periodStart: period.start,
    periodEnd: period.end,
    lines,
    discounts: activeDiscounts(emulator, account, subscription, at),
  });
  if (subscription.automatic_tax.enabled)
    applyInvoiceTax(emulator, account, invoice, customer, subscription, lines);
  const balance = customer.balance ?? 0;
  invoice.starting_balance = balance;
  invoice.amount_due = Math.max(0, invoice.total + balance);
  invoice.amount_remaining = invoice.amount_due;
  invoice.ending_balance = Math.min(0, invoice.total + balance);
  invoice.webhooks_delivered_at = null;
  return invoice;
}
