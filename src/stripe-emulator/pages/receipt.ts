import type { FastifyInstance } from "fastify";
import { proportion } from "../currencies.js";
import type { Emulator } from "../emulator.js";
import { merchantName } from "./checkout.js";
import { formatAmount, formatDate, html, layout, messagePage } from "./layout.js";

/** A charge's `receipt_url`: what was paid, when, with which card, and what was refunded. */
export function registerReceiptPage(app: FastifyInstance, emulator: Emulator): void {
  app.get<{ Params: { id: string } }>("/receipts/payment/:id", (request, reply) => {
    const owned = emulator.store.state.charges[request.params.id];
    if (!owned) {
      return reply
        .status(404)
        .type("text/html")
        .send(messagePage("Receipt not found", "This receipt link is not valid."));
    }
    const { account, object: charge } = owned;
    const card = charge.payment_method_details?.card;
    const merchant = merchantName(emulator, account);
    // What the card was charged: in the buyer's currency when they paid in it (Adaptive Pricing).
    const charged = charge.presentment_details;
    const paid = (amount: number) =>
      charged
        ? formatAmount(
            proportion(amount, charged.presentment_amount, charge.amount),
            charged.presentment_currency,
          )
        : formatAmount(amount, charge.currency);
    return reply.type("text/html").send(
      layout(
        `Receipt from ${merchant}`,
        html`<main class="page narrow"><div class="card">
<p class="merchant"><span class="logo" aria-hidden="true">${merchant.slice(0, 1).toUpperCase()}</span>${merchant}</p>
<h1>Receipt</h1>
<p class="total">${paid(charge.amount)}</p>
<dl>
  <dt>Date paid</dt><dd>${formatDate(charge.created)}</dd>
  ${card ? html`<dt>Payment method</dt><dd>${(card.brand ?? "card").toUpperCase()} •••• ${card.last4}</dd>` : ""}
  ${charge.billing_details.email ? html`<dt>Email</dt><dd>${charge.billing_details.email}</dd>` : ""}
  ${charge.amount_refunded > 0 ? html`<dt>Refunded</dt><dd>${paid(charge.amount_refunded)}</dd>` : ""}
</dl>
</div></main>`,
      ),
    );
  });
}
