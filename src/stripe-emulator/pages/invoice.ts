import type { FastifyInstance, FastifyReply } from "fastify";
import type Stripe from "stripe";
import { findInvoice, payInvoiceWithCard } from "../actions/invoice-recovery.js";
import type { Emulator } from "../emulator.js";
import type { Scope } from "../state/types.js";
import { AUTOMATIC } from "../webhooks/events.js";
import { type CardForm, cardFields, TEST_CARDS_HINT } from "./card-fields.js";
import { merchantName } from "./checkout.js";
import { formatAmount, formatDate, html, layout, messagePage } from "./layout.js";

const STATUS_LABELS: Record<string, string> = {
  draft: "Draft",
  open: "Due",
  paid: "Paid",
  uncollectible: "Uncollectible",
  void: "Void",
};

/** A finalized invoice's `hosted_invoice_url`: what is owed, and a card form to pay it while open. */
export function registerInvoicePage(app: FastifyInstance, emulator: Emulator): void {
  app.get<{ Params: { id: string } }>("/invoice/:id", (request, reply) => {
    const found = findInvoice(emulator, request.params.id);
    if (!found || found.invoice.status === "draft") return notFound(reply);
    return reply.type("text/html").send(invoicePage(emulator, found.account, found.invoice, {}));
  });

  app.post<{ Params: { id: string }; Body: CardForm }>("/invoice/:id", (request, reply) => {
    const found = findInvoice(emulator, request.params.id);
    if (!found || found.invoice.status === "draft") return notFound(reply);
    const { account, invoice } = found;
    if (invoice.status !== "open") return reply.redirect(`/invoice/${invoice.id}`, 303);
    const form = request.body ?? {};
    const result = payInvoiceWithCard(
      emulator,
      account,
      invoice,
      { number: form.card_number ?? "", expiry: form.card_expiry ?? "", cvc: form.card_cvc ?? "" },
      AUTOMATIC,
    );
    if (!result.ok) {
      return reply
        .status(402)
        .type("text/html")
        .send(invoicePage(emulator, account, invoice, { form, error: result.message }));
    }
    return reply.redirect(`/invoice/${invoice.id}`, 303);
  });
}

function notFound(reply: FastifyReply) {
  return reply
    .status(404)
    .type("text/html")
    .send(messagePage("Invoice not found", "This invoice link is not valid."));
}

function invoicePage(
  emulator: Emulator,
  account: Scope,
  invoice: Stripe.Invoice,
  state: { form?: CardForm; error?: string },
): string {
  const merchant = merchantName(emulator, account);
  const open = invoice.status === "open";
  const shown = open ? invoice.amount_remaining : invoice.amount_paid;
  const amount = formatAmount(shown, invoice.currency);
  const status = invoice.status ?? "open";
  const paidAt = invoice.status_transitions.paid_at;
  const retry = invoice.next_payment_attempt;
  return layout(
    `Invoice from ${merchant}`,
    html`<main class="page narrow">
<p class="merchant"><span class="logo" aria-hidden="true">${merchant.slice(0, 1).toUpperCase()}</span>${merchant}</p>
<div class="stack">
<section class="card" aria-labelledby="invoice-title">
  <h1 id="invoice-title">Invoice ${invoice.number ?? ""}</h1>
  <p class="total" data-testid="amount">${amount}</p>
  <p class="muted">${open ? "Amount due" : "Amount paid"} · <span class="badge${open ? " warn" : ""}" data-testid="status">${STATUS_LABELS[status] ?? status}</span></p>
  <dl>
    ${invoice.customer_email ? html`<dt>To</dt><dd>${invoice.customer_email}</dd>` : ""}
    <dt>From</dt><dd>${merchant}</dd>
    ${invoice.status_transitions.finalized_at ? html`<dt>Issued</dt><dd>${formatDate(invoice.status_transitions.finalized_at)}</dd>` : ""}
    ${paidAt ? html`<dt>Paid</dt><dd>${formatDate(paidAt)}</dd>` : ""}
    ${open && retry ? html`<dt>Next automatic attempt</dt><dd>${formatDate(retry)}</dd>` : ""}
  </dl>
  <ul class="items" aria-label="Invoice lines">
    ${invoice.lines.data.map(
      (line) =>
        html`<li><span>${line.description ?? ""}</span><span>${formatAmount(line.amount, line.currency)}</span></li>`,
    )}
    ${(invoice.total_discount_amounts ?? []).map(
      (discount) =>
        html`<li><span>Discount</span><span>−${formatAmount(discount.amount, invoice.currency)}</span></li>`,
    )}
    <li><span>${open ? "Amount due" : "Total"}</span><span>${formatAmount(open ? invoice.amount_remaining : invoice.total, invoice.currency)}</span></li>
  </ul>
</section>
${
  open
    ? html`<section class="card" aria-labelledby="pay-title">
  <h2 id="pay-title">Pay with card</h2>
  <form method="post" novalidate>
    ${cardFields(state.form ?? {}, state.error)}
    <button class="button" type="submit">Pay ${amount}</button>
  </form>
  ${TEST_CARDS_HINT}
</section>`
    : ""
}
</div>
</main>`,
  );
}
