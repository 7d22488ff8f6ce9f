import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { invalidRequest } from "../errors.js";
import { newId } from "../ids.js";
import { type InvoiceLineInput, periodLines, productOf } from "../objects/invoice.js";
import { buildInvoiceItem } from "../objects/invoice-item.js";
import { planFromPrice } from "../objects/price.js";
import { setSubscriptionPeriod } from "../objects/subscription.js";
import { addInterval } from "../periods.js";
import { snapshot } from "../state/snapshot.js";
import type { Scope } from "../state/types.js";
import type { EventOrigin } from "../webhooks/events.js";
import { openSubscriptionInvoice, payInvoice, productNames } from "./invoices.js";
import { defaultCard, emitUpdated } from "./subscriptions.js";

export type ProrationBehavior = "create_prorations" | "always_invoice" | "none";

/** A subscription item moving to another price (or quantity). */
export interface ItemChange {
  item: Stripe.SubscriptionItem;
  price: Stripe.Price;
  quantity: number;
}

export interface PlannedChange {
  /** Credit for unused time on the old price and charge for the remaining time on the new one. */
  prorations: InvoiceLineInput[];
  /** With a new interval the billing cycle restarts at the change: the new first period. */
  newPeriod: { start: number; end: number } | null;
}

/**
 * What a price change does to the money, to the second, as Stripe computes it: for each changed item,
 * `-(old amount × unused fraction)` and `+(new amount × unused fraction)` of the current period from
 * `prorationDate`. With a new interval the new price is billed in full from the change instead.
 * Trials have nothing to prorate, and keep their end.
 */
export function planChange(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  changes: ItemChange[],
  behavior: ProrationBehavior,
  prorationDate: number,
  newLineId: () => string,
): PlannedChange {
  const first = changes[0];
  // A trial keeps its end whatever the new interval: the new price starts when it does.
  const intervalChange =
    first !== undefined &&
    subscription.status !== "trialing" &&
    (first.price.recurring?.interval !== first.item.price.recurring?.interval ||
      first.price.recurring?.interval_count !== first.item.price.recurring?.interval_count);
  const prorate = behavior !== "none" && subscription.status !== "trialing";
  const names = productNames(emulator, account, [
    ...changes.map((change) => change.price),
    ...changes.map((change) => change.item.price),
  ]);
  const prorations: InvoiceLineInput[] = [];
  for (const change of prorate ? changes : []) {
    const { item } = change;
    const start = item.current_period_start;
    const end = item.current_period_end;
    const unused = Math.min(1, Math.max(0, (end - prorationDate) / Math.max(1, end - start)));
    const period = { start: Math.max(start, Math.min(prorationDate, end)), end };
    const oldQuantity = item.quantity ?? 1;
    const oldName = names[productOf(item.price)] ?? productOf(item.price);
    const newName = names[productOf(change.price)] ?? productOf(change.price);
    const after = prorationLabel(prorationDate);
    prorations.push({
      id: newLineId(),
      amount: -Math.round((item.price.unit_amount ?? 0) * oldQuantity * unused),
      description: `Unused time on ${oldQuantity} × ${oldName} after ${after}`,
      period,
      price: item.price,
      quantity: oldQuantity,
      subscriptionItem: item.id,
      proration: true,
      invoiceItem: null,
      creditedItems: creditedLine(emulator, account, subscription, item),
    });
    if (!intervalChange) {
      prorations.push({
        id: newLineId(),
        amount: Math.round((change.price.unit_amount ?? 0) * change.quantity * unused),
        description: `Remaining time on ${change.quantity} × ${newName} after ${after}`,
        period,
        price: change.price,
        quantity: change.quantity,
        subscriptionItem: item.id,
        proration: true,
        invoiceItem: null,
        creditedItems: null,
      });
    }
  }
  const recurring = first?.price.recurring;
  const newPeriod =
    intervalChange && recurring
      ? {
          start: prorationDate,
          end: addInterval(prorationDate, recurring.interval, recurring.interval_count),
        }
      : null;
  return { prorations, newPeriod };
}

/**
 * `subscriptions.update` with new prices: `create_prorations` leaves pending invoice items for the next
 * invoice, `always_invoice` invoices and charges them now (`subscription_update`), `none` only switches
 * the price. A new interval restarts the billing cycle now and is invoiced at once, as in Stripe.
 * Events: `invoiceitem.created` per proration, then (when invoiced) the invoice's and payment's, last
 * `customer.subscription.updated` with the old `items` in `previous_attributes`.
 */
export function changeItems(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  changes: ItemChange[],
  behavior: ProrationBehavior,
  prorationDate: number,
  origin: EventOrigin,
  previous: Partial<Stripe.Subscription>,
): Stripe.Subscription {
  const { store, events } = emulator;
  const now = emulator.now();
  const plan = planChange(emulator, account, subscription, changes, behavior, prorationDate, () =>
    newId("il"),
  );
  previous.items = snapshot(subscription.items);
  for (const change of changes) {
    change.item.price = snapshot(change.price);
    change.item.plan = planFromPrice(change.price);
    change.item.quantity = change.quantity;
  }
  const customer = store.get("customers", account, String(subscription.customer), "customer");
  for (const line of plan.prorations) {
    const item = buildInvoiceItem(newId("ii"), now, customer.id, subscription.id, line);
    store.put("invoiceItems", account, item);
    events.emit(account, { type: "invoiceitem.created", data: { object: item } }, origin);
  }
  const invoiceNow = plan.newPeriod !== null || (behavior === "always_invoice" && plan.prorations.length > 0);
  if (plan.newPeriod) {
    previous.billing_cycle_anchor = subscription.billing_cycle_anchor;
    setSubscriptionPeriod(subscription, plan.newPeriod.start, plan.newPeriod.end);
    subscription.billing_cycle_anchor = plan.newPeriod.start;
  }
  if (invoiceNow) {
    previous.latest_invoice = subscription.latest_invoice;
    const names = productNames(
      emulator,
      account,
      changes.map((change) => change.price),
    );
    const invoice = openSubscriptionInvoice(
      emulator,
      account,
      {
        customer,
        subscription,
        billingReason: "subscription_update",
        period: { start: now, end: now },
        lines: plan.newPeriod ? periodLines(subscription, plan.newPeriod, names, () => newId("il")) : [],
      },
      origin,
    );
    payInvoice(emulator, account, invoice, customer, defaultCard(emulator, subscription), origin);
  }
  emitUpdated(emulator, account, subscription, previous, origin);
  return subscription;
}

/** The changes `items[]` asks for, checked against the subscription. */
export function itemChanges(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  items: { id?: string | undefined; price?: string | undefined; quantity?: number | undefined }[],
  param: string,
): ItemChange[] {
  const changes = items.map((entry, index) => {
    const item = subscription.items.data.find((candidate) => candidate.id === entry.id);
    if (!entry.id) {
      throw invalidRequest(
        "The emulator changes existing subscription items only: pass the item's `id`.",
        `${param}[${index}][id]`,
      );
    }
    if (!item) {
      throw invalidRequest(
        `Subscription item ${entry.id} does not belong to this subscription.`,
        `${param}[${index}][id]`,
      );
    }
    const price = entry.price
      ? emulator.store.get("prices", account, entry.price, "price", `${param}[${index}][price]`)
      : item.price;
    if (!price.recurring) {
      throw invalidRequest(
        "The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.",
        `${param}[${index}][price]`,
      );
    }
    if (price.currency !== subscription.currency) {
      throw invalidRequest(
        `The price's currency (${price.currency}) does not match the subscription's (${subscription.currency}).`,
        `${param}[${index}][price]`,
      );
    }
    return { item, price, quantity: entry.quantity ?? item.quantity ?? 1 };
  });
  return changes.filter(
    (change) => change.price.id !== change.item.price.id || change.quantity !== change.item.quantity,
  );
}

/** The moment a proration starts from: "after 12 Jan 2026" as Stripe words it. */
function prorationLabel(at: number): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(at * 1000));
}

/** The invoice line that billed the item's current period, which a credit proration gives back. */
function creditedLine(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  item: Stripe.SubscriptionItem,
): { invoice: string; invoice_line_items: string[] } | null {
  for (const invoice of emulator.store.list("invoices", account)) {
    if (invoice.parent?.subscription_details?.subscription !== subscription.id) continue;
    const line = invoice.lines.data.find(
      (candidate) =>
        candidate.parent?.subscription_item_details?.subscription_item === item.id &&
        !candidate.parent.subscription_item_details.proration &&
        candidate.period.end === item.current_period_end,
    );
    if (line) return { invoice: invoice.id, invoice_line_items: [line.id] };
  }
  return null;
}
