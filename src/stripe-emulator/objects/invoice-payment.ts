import type Stripe from "stripe";

/** How an invoice was paid (API 2025-03-31 and later): the PaymentIntent is on `payment.payment_intent`. */
export function buildInvoicePayment(
  id: string,
  created: number,
  invoice: Stripe.Invoice,
  paymentIntent: string,
): Stripe.InvoicePayment {
  return {
    id,
    object: "invoice_payment",
    amount_paid: invoice.amount_due,
    amount_requested: invoice.amount_due,
    created,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: "payment_intent", payment_intent: paymentIntent },
    status: "paid",
    status_transitions: { canceled_at: null, paid_at: created },
  };
}
