import type { FastifyInstance, FastifyReply } from "fastify";
import type Stripe from "stripe";
import { expireIfDue, findCheckoutSession, payCheckoutSession } from "../actions/checkout.js";
import type { Emulator } from "../emulator.js";
import { StripeApiError } from "../errors.js";
import type { Scope } from "../state/types.js";
import { type CardForm, cardFields, TEST_CARDS_HINT } from "./card-fields.js";
import { formatAmount, html, layout, messagePage } from "./layout.js";

interface PayForm extends CardForm {
  email?: string;
}

export function registerCheckoutPage(app: FastifyInstance, emulator: Emulator): void {
  app.get<{ Params: { id: string } }>("/c/pay/:id", (request, reply) => {
    const found = lookup(emulator, request.params.id);
    if (!found) return notFound(reply);
    expireIfDue(emulator, found.account, found.session);
    if (found.session.status !== "open") return closedSession(reply, found.session);
    return reply.type("text/html").send(checkoutPage(emulator, found.account, found.session, {}));
  });

  app.post<{ Params: { id: string }; Body: PayForm }>("/c/pay/:id", (request, reply) => {
    const found = lookup(emulator, request.params.id);
    if (!found) return notFound(reply);
    expireIfDue(emulator, found.account, found.session);
    if (found.session.status !== "open") return closedSession(reply, found.session);
    const form = request.body ?? {};
    const result = payCheckoutSession(emulator, found.account, found.session, {
      email: form.email ?? "",
      number: form.card_number ?? "",
      expiry: form.card_expiry ?? "",
      cvc: form.card_cvc ?? "",
    });
    if (!result.ok) {
      return reply
        .status(402)
        .type("text/html")
        .send(checkoutPage(emulator, found.account, found.session, form, result.message));
    }
    const successUrl = result.session.success_url?.replaceAll("{CHECKOUT_SESSION_ID}", result.session.id);
    if (successUrl) return reply.redirect(successUrl, 303);
    return reply
      .type("text/html")
      .send(messagePage("Payment complete", "Thanks! Your payment went through."));
  });
}

function lookup(emulator: Emulator, id: string) {
  try {
    return findCheckoutSession(emulator, id);
  } catch (error) {
    if (error instanceof StripeApiError) return undefined;
    throw error;
  }
}

function notFound(reply: FastifyReply) {
  return reply
    .status(404)
    .type("text/html")
    .send(messagePage("Page not found", "This checkout link is not valid. Go back and try again."));
}

function closedSession(reply: FastifyReply, session: Stripe.Checkout.Session) {
  if (session.status === "complete") {
    const successUrl = session.success_url?.replaceAll("{CHECKOUT_SESSION_ID}", session.id);
    return reply
      .type("text/html")
      .send(
        messagePage(
          "This payment is already complete",
          "This checkout session has been paid. There is nothing more to do here.",
          successUrl ? { href: successUrl, label: "Continue" } : undefined,
        ),
      );
  }
  return reply
    .status(410)
    .type("text/html")
    .send(
      messagePage(
        "This checkout session has expired",
        "The link is no longer active. Go back to the site and start again.",
        session.cancel_url ? { href: session.cancel_url, label: "Go back" } : undefined,
      ),
    );
}

/**
 * Who the buyer pays: the connected account's business name, as Stripe shows it, or a stand-in for the
 * platform or an unnamed account. Never the account's email: that is the owner's sign-in, not for buyers.
 */
export function merchantName(emulator: Emulator, account: Scope): string {
  if (!account) return "Test merchant";
  const connected = emulator.store.state.accounts[account];
  return connected?.business_profile?.name || connected?.settings?.dashboard.display_name || "Test merchant";
}

function intervalLabel(price: Stripe.Price | null): string {
  const recurring = price?.recurring;
  if (!recurring) return "";
  return recurring.interval_count === 1
    ? ` per ${recurring.interval}`
    : ` every ${recurring.interval_count} ${recurring.interval}s`;
}

function checkoutPage(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  form: PayForm,
  error?: string,
): string {
  const details = emulator.store.state.checkoutDetails[session.id];
  const lineItems = details?.lineItems ?? [];
  const trialDays =
    details?.trialPeriodDays ??
    (details?.trialEnd ? Math.ceil((details.trialEnd - emulator.now()) / 86_400) : undefined);
  const discount = session.total_details?.amount_discount ?? 0;
  const currency = session.currency ?? "usd";
  const total = formatAmount(session.amount_total ?? 0, currency);
  const recurring = intervalLabel(lineItems.find((item) => item.price?.recurring)?.price ?? null);
  const merchant = merchantName(emulator, account);
  const customer =
    typeof session.customer === "string"
      ? emulator.store.find("customers", account, session.customer)
      : undefined;
  const email = form.email ?? session.customer_email ?? customer?.email ?? "";
  const subscribing = session.mode === "subscription";
  return layout(
    `Pay ${merchant}`,
    html`<main class="page"><div class="columns">
<section aria-label="Order summary">
  ${session.cancel_url ? html`<a class="back" href="${session.cancel_url}">← Cancel and go back</a>` : ""}
  <h1 class="merchant"><span class="logo" aria-hidden="true">${merchant.slice(0, 1).toUpperCase()}</span>${merchant}</h1>
  <p class="muted">${subscribing ? "Subscribe" : "Pay"}</p>
  ${
    trialDays
      ? html`<p class="total" data-testid="total">${trialDays} days free</p>`
      : html`<p class="total" data-testid="total">${total}<span class="muted small">${recurring}</span></p>`
  }
  <ul class="items">
    ${lineItems.map(
      (item) =>
        html`<li><span>${item.description}${(item.quantity ?? 1) > 1 ? html` <span class="muted">× ${item.quantity}</span>` : ""}</span><span>${formatAmount(item.amount_subtotal, item.currency)}${intervalLabel(item.price)}</span></li>`,
    )}
    ${discount > 0 && !trialDays ? html`<li><span>Discount</span><span>−${formatAmount(discount, currency)}</span></li>` : ""}
    <li><span>Total due today</span><span>${total}</span></li>
  </ul>
</section>
<section class="card" aria-label="Payment">
  <h2>Pay with card</h2>
  <form method="post" novalidate>
    <label for="email">Email</label>
    <input type="email" id="email" name="email" autocomplete="email" required value="${email}">
    ${cardFields(form, error)}
    <button class="button" type="submit">${subscribing ? "Subscribe" : `Pay ${total}`}</button>
  </form>
  ${TEST_CARDS_HINT}
</section>
</div></main>`,
  );
}
