import type { FastifyInstance, FastifyReply } from "fastify";
import type Stripe from "stripe";
import { recoverInvoice } from "../actions/invoice-recovery.js";
import {
  endSubscription,
  openInvoiceToRetry,
  setCancelAtPeriodEnd,
  setDefaultPaymentMethod,
} from "../actions/subscriptions.js";
import { checkCard } from "../cards.js";
import type { Emulator } from "../emulator.js";
import { newId } from "../ids.js";
import { subscriptionPeriod } from "../objects/subscription.js";
import type { SavedCard, Scope } from "../state/types.js";
import { AUTOMATIC } from "../webhooks/events.js";
import { formatAmount, formatDate, html, layout, messagePage } from "./layout.js";

type PortalAction = "cancel-at-period-end" | "cancel-now" | "resume" | "update-card";

const NOTICES: Record<string, string> = {
  "cancel-at-period-end": "Your plan will be canceled at the end of the billing period.",
  "cancel-now": "Your plan has been canceled.",
  resume: "Your plan will renew as usual.",
  "update-card": "Your payment method was updated.",
};

interface PortalParams {
  id: string;
  subscription: string;
  action: PortalAction;
}

interface CardForm {
  card_number?: string;
  card_expiry?: string;
  card_cvc?: string;
}

/** The customer portal: the customer's subscriptions, with the actions Stripe's portal offers. */
export function registerPortalPage(app: FastifyInstance, emulator: Emulator): void {
  const findSession = (id: string) => emulator.store.state.portalSessions[id];

  app.get<{ Params: { id: string }; Querystring: { done?: string } }>("/p/session/:id", (request, reply) => {
    const owned = findSession(request.params.id);
    if (!owned) return notFound(reply);
    const notice = request.query.done ? NOTICES[request.query.done] : undefined;
    return reply.type("text/html").send(portalPage(emulator, owned.account, owned.object, { notice }));
  });

  app.post<{ Params: PortalParams; Body: CardForm }>(
    "/p/session/:id/subscriptions/:subscription/:action",
    (request, reply) => {
      const owned = findSession(request.params.id);
      if (!owned) return notFound(reply);
      const { account, object: session } = owned;
      const subscription = emulator.store.find("subscriptions", account, request.params.subscription);
      if (!subscription || subscription.customer !== session.customer) return notFound(reply);
      const back = `/p/session/${session.id}`;
      if (subscription.status === "canceled") return reply.redirect(back, 303);
      switch (request.params.action) {
        case "cancel-at-period-end":
          setCancelAtPeriodEnd(emulator, account, subscription, true, AUTOMATIC);
          break;
        case "resume":
          setCancelAtPeriodEnd(emulator, account, subscription, false, AUTOMATIC);
          break;
        case "cancel-now":
          endSubscription(emulator, account, subscription, "cancellation_requested", AUTOMATIC);
          break;
        case "update-card": {
          const form = request.body ?? {};
          const card = checkCard(
            { number: form.card_number ?? "", expiry: form.card_expiry ?? "", cvc: form.card_cvc ?? "" },
            emulator.now(),
          );
          if (!card.ok) {
            return reply
              .status(402)
              .type("text/html")
              .send(
                portalPage(emulator, account, session, {
                  cardError: { subscription: subscription.id, message: card.message },
                }),
              );
          }
          const saved: SavedCard = {
            id: newId("pm"),
            customer: session.customer,
            brand: card.brand,
            last4: card.last4,
            expMonth: card.expMonth,
            expYear: card.expYear,
          };
          emulator.store.set("cards", saved.id, saved);
          // Stripe retries the open invoice of a past-due subscription with the new default card.
          const open = openInvoiceToRetry(emulator, account, subscription);
          if (open) recoverInvoice(emulator, account, open, saved, AUTOMATIC);
          else setDefaultPaymentMethod(emulator, account, subscription, saved, AUTOMATIC);
          break;
        }
        default:
          return notFound(reply);
      }
      const flowEnd = session.flow?.after_completion;
      if (flowEnd?.type === "redirect" && flowEnd.redirect)
        return reply.redirect(flowEnd.redirect.return_url, 303);
      return reply.redirect(`${back}?done=${request.params.action}`, 303);
    },
  );
}

function notFound(reply: FastifyReply) {
  return reply
    .status(404)
    .type("text/html")
    .send(messagePage("Page not found", "This billing portal link is not valid. Go back and open it again."));
}

function returnLabel(returnUrl: string): string {
  try {
    return new URL(returnUrl).host;
  } catch {
    return "the site";
  }
}

function statusBadge(subscription: Stripe.Subscription) {
  if (subscription.status === "canceled") return html`<span class="badge off">Canceled</span>`;
  if (subscription.cancel_at_period_end) return html`<span class="badge warn">Cancels soon</span>`;
  if (subscription.status === "past_due") return html`<span class="badge warn">Past due</span>`;
  if (subscription.status === "trialing") return html`<span class="badge">Trial</span>`;
  return html`<span class="badge">${subscription.status === "active" ? "Active" : subscription.status}</span>`;
}

function portalPage(
  emulator: Emulator,
  account: Scope,
  session: Stripe.BillingPortal.Session,
  messages: { notice?: string | undefined; cardError?: { subscription: string; message: string } },
): string {
  // A flow on one subscription (cancel, update) shows that one only.
  const only =
    session.flow?.subscription_cancel?.subscription ?? session.flow?.subscription_update?.subscription;
  const subscriptions = emulator.store
    .list("subscriptions", account)
    .filter(
      (subscription) =>
        subscription.customer === session.customer && (only === undefined || subscription.id === only),
    );
  const customer = emulator.store.find("customers", account, session.customer);
  return layout(
    "Billing",
    html`<main class="page narrow">
${session.return_url ? html`<a class="back" href="${session.return_url}" data-testid="return-link">← Return to ${returnLabel(session.return_url)}</a>` : ""}
<h1>Billing</h1>
<p class="muted">${customer?.email ?? session.customer}</p>
${messages.notice ? html`<div class="notice" role="status">${messages.notice}</div>` : ""}
<div class="stack">
${subscriptions.length === 0 ? html`<div class="card"><p class="muted">No subscriptions.</p></div>` : ""}
${subscriptions.map((subscription) => subscriptionCard(emulator, session, subscription, messages.cardError))}
</div>
</main>`,
  );
}

function subscriptionCard(
  emulator: Emulator,
  session: Stripe.BillingPortal.Session,
  subscription: Stripe.Subscription,
  cardError: { subscription: string; message: string } | undefined,
) {
  const item = subscription.items.data[0];
  const price = item?.price;
  const productId = price ? (typeof price.product === "string" ? price.product : price.product.id) : "";
  const plan = emulator.store.state.products[productId]?.object.name ?? "Plan";
  const amount = price ? formatAmount((price.unit_amount ?? 0) * (item?.quantity ?? 1), price.currency) : "";
  const interval = price?.recurring ? ` per ${price.recurring.interval}` : "";
  const { end } = subscriptionPeriod(subscription);
  const card =
    typeof subscription.default_payment_method === "string"
      ? emulator.store.state.cards[subscription.default_payment_method]
      : undefined;
  const action = (name: PortalAction) => `/p/session/${session.id}/subscriptions/${subscription.id}/${name}`;
  const active = subscription.status !== "canceled";
  const dateLabel = subscription.cancel_at_period_end
    ? "Cancels on"
    : subscription.status === "trialing"
      ? "Trial ends on"
      : "Renews on";
  return html`<section class="card" data-subscription="${subscription.id}">
<h2>${plan} ${statusBadge(subscription)}</h2>
<p class="total">${amount}<span class="muted small">${interval}</span></p>
<dl>
  <dt>Status</dt><dd>${subscription.status}</dd>
  ${active ? html`<dt>${dateLabel}</dt><dd data-testid="period-end">${formatDate(end)}</dd>` : html`<dt>Ended</dt><dd>${formatDate(subscription.ended_at ?? end)}</dd>`}
  ${card ? html`<dt>Card</dt><dd>${card.brand.toUpperCase()} •••• ${card.last4}</dd>` : ""}
</dl>
${
  active
    ? html`<div class="actions">
  ${
    subscription.cancel_at_period_end
      ? html`<form method="post" action="${action("resume")}"><button class="button" type="submit">Resume subscription</button></form>`
      : html`<form method="post" action="${action("cancel-at-period-end")}"><button class="button secondary" type="submit">Cancel at period end</button></form>`
  }
  <form method="post" action="${action("cancel-now")}"><button class="button danger" type="submit">Cancel now</button></form>
</div>
<form method="post" action="${action("update-card")}" novalidate>
  <label for="card_number_${subscription.id}">Update card</label>
  <div class="card-group">
    <input type="text" id="card_number_${subscription.id}" name="card_number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" aria-label="Card number">
    <div class="row">
      <input type="text" name="card_expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" aria-label="Expiration date">
      <input type="text" name="card_cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" aria-label="CVC">
    </div>
  </div>
  ${cardError?.subscription === subscription.id ? html`<div class="error" role="alert">${cardError.message}</div>` : ""}
  <button class="button secondary" type="submit">Save card</button>
</form>`
    : ""
}
</section>`;
}
