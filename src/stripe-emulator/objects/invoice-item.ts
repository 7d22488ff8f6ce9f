import Stripe from "stripe";
import type { InvoiceLineInput } from "./invoice.js";

/**
 * A pending proration (`create_prorations`): an invoice item on the customer, not yet on an invoice,
 * which the subscription's next invoice picks up.
 */
export function buildInvoiceItem(
  id: string,
  created: number,
  customer: string,
  subscription: string,
  line: InvoiceLineInput,
): Stripe.InvoiceItem {
  const product = typeof line.price.product === "string" ? line.price.product : line.price.product.id;
  return {
    id,
    object: "invoiceitem",
    amount: line.amount,
    currency: line.price.currency,
    customer,
    customer_account: null,
    date: created,
    description: line.description,
    discountable: false,
    discounts: [],
    invoice: null,
    livemode: false,
    metadata: {},
    parent: {
      type: "subscription_details",
      subscription_details: { subscription, subscription_item: line.subscriptionItem },
    },
    period: line.period,
    pricing: {
      type: "price_details",
      price_details: { price: line.price.id, product },
      unit_amount_decimal: line.price.unit_amount_decimal,
    },
    proration: line.proration,
    proration_details: {
      credited_items: line.creditedItems
        ? {
            type: "invoice_line_items",
            invoice_line_item_details: {
              invoice: line.creditedItems.invoice,
              invoice_line_items: line.creditedItems.invoice_line_items,
            },
          }
        : null,
      discount_amounts: [],
    },
    quantity: line.quantity,
    quantity_decimal: Stripe.Decimal.from(line.quantity),
    tax_rates: [],
    test_clock: null,
  };
}

/** What an invoice line is made of, back from the pending item. */
export function lineFromInvoiceItem(
  item: Stripe.InvoiceItem,
  lineId: string,
  price: Stripe.Price,
): InvoiceLineInput {
  const details = item.proration_details?.credited_items?.invoice_line_item_details;
  return {
    id: lineId,
    amount: item.amount,
    description: item.description ?? "",
    period: item.period,
    price,
    quantity: item.quantity,
    subscriptionItem: item.parent?.subscription_details?.subscription_item ?? "",
    proration: item.proration,
    invoiceItem: item.id,
    creditedItems: details
      ? { invoice: details.invoice, invoice_line_items: details.invoice_line_items }
      : null,
  };
}
