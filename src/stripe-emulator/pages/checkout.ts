import type { FastifyInstance, FastifyReply } from "fastify";
import type Stripe from "stripe";
import { formatMoney } from "../../contracts/money.js";
import { offeredCurrency, presentmentOf } from "../actions/adaptive-pricing.js";
import {
  collectsPromotions,
  customerTaxExempt,
  expireIfDue,
  findCheckoutSession,
  hasEuVatId,
  payCheckoutSession,
  saveBuyerConsent,
} from "../actions/checkout.js";
import { lineBehavior } from "../actions/checkout-tax.js";
import { activeCoverage, taxSettingsOf } from "../actions/tax.js";
import { CONVERSION_FEE_PERCENT, preferredLanguage } from "../currencies.js";
import type { Emulator } from "../emulator.js";
import { StripeApiError } from "../errors.js";
import type { Scope } from "../state/types.js";
import { type CardForm, cardFields, TEST_CARDS_HINT } from "./card-fields.js";
import { checkoutWords } from "./checkout-words.js";
import { formatAmount, Html, html, layout, messagePage } from "./layout.js";
import {
  type AddressForm,
  addressFields,
  businessFields,
  customText,
  type FieldError,
  previewData,
  previewScript,
  termsField,
} from "./tax-fields.js";

interface PayForm extends CardForm, AddressForm {
  email?: string;
  /** The promotions box (`consent_collection[promotions]=auto`). */
  promotions?: string;
  /** Adaptive Pricing: the currency the page showed (the session's, or the buyer's own). */
  currency?: string;
}

/**
 * Adaptive Pricing on the page: the buyer's currency it offers (from the request's `Accept-Language`),
 * the currency it shows (the offered one unless the buyer chose the session's with `?currency=`), and
 * the locale amounts in the buyer's currency are written in.
 */
interface CurrencyView {
  offered: string | undefined;
  showing: string;
  locale: string;
}

const FIELD_PARAMS = new Set([
  "name",
  "country",
  "state",
  "postal_code",
  "line1",
  "city",
  "business_name",
  "tax_id",
  "terms_of_service",
]);

export function registerCheckoutPage(app: FastifyInstance, emulator: Emulator): void {
  app.get<{ Params: { id: string }; Querystring: { currency?: unknown } }>("/c/pay/:id", (request, reply) => {
    const found = lookup(emulator, request.params.id);
    if (!found) return notFound(reply);
    expireIfDue(emulator, found.account, found.session);
    if (found.session.status !== "open") return closedSession(reply, found.session);
    const chosen = typeof request.query.currency === "string" ? request.query.currency : undefined;
    const view = currencyView(
      emulator,
      found.account,
      found.session,
      request.headers["accept-language"],
      chosen,
    );
    return reply.type("text/html").send(checkoutPage(emulator, found.account, found.session, {}, view));
  });

  app.post<{ Params: { id: string }; Body: PayForm }>("/c/pay/:id", (request, reply) => {
    const found = lookup(emulator, request.params.id);
    if (!found) return notFound(reply);
    expireIfDue(emulator, found.account, found.session);
    if (found.session.status !== "open") return closedSession(reply, found.session);
    const form = request.body ?? {};
    const acceptLanguage = request.headers["accept-language"];
    const currency = typeof form.currency === "string" ? form.currency : undefined;
    const result = payCheckoutSession(emulator, found.account, found.session, {
      email: form.email ?? "",
      number: form.card_number ?? "",
      expiry: form.card_expiry ?? "",
      cvc: form.card_cvc ?? "",
      name: form.name,
      address: {
        country: form.country,
        state: form.state,
        postal_code: form.postal_code,
        line1: form.line1,
        city: form.city,
      },
      business: form.business === "on",
      businessName: form.business_name,
      taxId: form.tax_id,
      termsAccepted: form.terms === "on",
      promotions: form.promotions === "on",
      acceptLanguage,
      currency,
    });
    if (!result.ok) {
      const fieldError = FIELD_PARAMS.has(result.param)
        ? { param: result.param, message: result.message }
        : undefined;
      const view = currencyView(emulator, found.account, found.session, acceptLanguage, currency);
      return reply
        .status(fieldError || result.param === "currency" ? 400 : 402)
        .type("text/html")
        .send(
          checkoutPage(
            emulator,
            found.account,
            found.session,
            form,
            view,
            fieldError ? undefined : result.message,
            fieldError,
          ),
        );
    }
    const successUrl = result.session.success_url?.replaceAll("{CHECKOUT_SESSION_ID}", result.session.id);
    if (successUrl) return reply.redirect(successUrl, 303);
    return reply
      .type("text/html")
      .send(messagePage("Payment complete", "Thanks! Your payment went through."));
  });
  // The page saves the email and the promotions box as the buyer fills them in (its script), as Stripe's
  // does: a buyer who agreed and then left can be emailed about the checkout they abandoned.
  app.post<{ Params: { id: string }; Body: { email?: unknown; promotions?: unknown } }>(
    "/c/pay/:id/consent",
    (request, reply) => {
      const found = lookup(emulator, request.params.id);
      if (!found) return notFound(reply);
      expireIfDue(emulator, found.account, found.session);
      const body = request.body ?? {};
      const saved = saveBuyerConsent(emulator, found.session, {
        email: typeof body.email === "string" ? body.email : "",
        optIn: body.promotions === "on" || body.promotions === "true",
      });
      return reply.status(saved ? 204 : 400).send();
    },
  );
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

function currencyView(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  acceptLanguage: string | undefined,
  chosen: string | undefined,
): CurrencyView {
  const integration = session.currency ?? "usd";
  const offered = offeredCurrency(emulator, account, session, acceptLanguage);
  const choice = chosen?.trim().toLowerCase();
  const showing = choice === integration ? integration : (offered ?? integration);
  const pageLocale = session.locale && session.locale !== "auto" ? session.locale : undefined;
  return { offered, showing, locale: pageLocale ?? preferredLanguage(acceptLanguage) ?? "en-US" };
}

/**
 * The converted total and the line saying so, with a link (no script needed) to pay in the other
 * currency; nothing when the page offers no currency of the buyer's.
 */
function conversionNote(session: Stripe.Checkout.Session, view: CurrencyView): Html | string {
  const { offered } = view;
  if (!offered) return "";
  const integration = session.currency ?? "usd";
  const original = formatMoney(session.amount_total ?? 0, integration, view.locale);
  const local = presentmentOf(session, offered);
  const converted = formatMoney(local.amount, offered, view.locale);
  if (view.showing === integration) {
    return html`<p class="hint" data-testid="currency-choice"><a href="?currency=${offered}" data-testid="pay-in-local">Pay in ${offered.toUpperCase()} (${converted}) instead</a></p>`;
  }
  return html`<p class="hint" data-testid="currency-conversion">Price converted from ${original} at 1 ${integration.toUpperCase()} = ${local.rate} ${offered.toUpperCase()}, including a ${CONVERSION_FEE_PERCENT}% conversion fee. <a href="?currency=${integration}" data-testid="pay-in-original">Pay in ${integration.toUpperCase()} (${original}) instead</a></p>`;
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
  view: CurrencyView,
  error?: string,
  fieldError?: FieldError,
): string {
  const details = emulator.store.state.checkoutDetails[session.id];
  const lineItems = details?.lineItems ?? [];
  const trialDays =
    details?.trialPeriodDays ??
    (details?.trialEnd ? Math.ceil((details.trialEnd - emulator.now()) / 86_400) : undefined);
  const discount = session.total_details?.amount_discount ?? 0;
  const currency = session.currency ?? "usd";
  // With Adaptive Pricing the totals and the button show the buyer's currency; the lines stay as priced.
  const converted = view.showing !== currency;
  const total = converted
    ? formatMoney(presentmentOf(session, view.showing).amount, view.showing, view.locale)
    : formatAmount(session.amount_total ?? 0, currency);
  const recurring = intervalLabel(lineItems.find((item) => item.price?.recurring)?.price ?? null);
  const merchant = merchantName(emulator, account);
  const customer =
    typeof session.customer === "string"
      ? emulator.store.find("customers", account, session.customer)
      : undefined;
  const email = form.email ?? session.customer_email ?? customer?.email ?? "";
  const subscribing = session.mode === "subscription";
  const taxed = session.automatic_tax.enabled;
  const collectAddress = taxed || session.billing_address_collection === "required";
  const taxInSummary = taxed && !subscribing && !trialDays;
  const settings = taxSettingsOf(emulator, account);
  const inclusive = lineItems.map(
    (item) => lineBehavior(item.price?.tax_behavior, settings, currency) === "inclusive",
  );
  const allInclusive = inclusive.every(Boolean);
  const taxRow = taxInSummary
    ? session.automatic_tax.status === "complete"
      ? html`<li><span id="tax-label">Tax</span><span id="tax-amount" aria-live="polite">${allInclusive ? "incl. " : ""}${formatAmount(session.total_details?.amount_tax ?? 0, currency)}</span></li>`
      : html`<li><span id="tax-label">Tax</span><span id="tax-amount" class="muted" aria-live="polite">Enter address to calculate</span></li>`
    : "";
  const terms = session.consent_collection?.terms_of_service === "required";
  const words = checkoutWords(session.locale);
  const submitText = session.custom_text.submit?.message;
  const afterSubmitText = session.custom_text.after_submit?.message;
  const preview =
    taxInSummary && details
      ? previewScript(
          previewData({
            currency,
            subtotal: session.amount_subtotal ?? 0,
            discount,
            lines: lineItems.map((item, index) => ({
              amount: item.amount_subtotal - item.amount_discount,
              inclusive: inclusive[index] ?? false,
            })),
            coverage: activeCoverage(emulator, account),
            taxExempt: customer ? customerTaxExempt(customer) : "none",
            customerEuVat: customer ? hasEuVatId(emulator, account, customer.id) : false,
          }),
        )
      : taxed || session.tax_id_collection?.enabled
        ? businessToggleScript
        : "";
  return layout(
    `${words.pay} ${merchant}`,
    html`<main class="page"><div class="columns">
<section aria-label="Order summary">
  ${session.cancel_url ? html`<a class="back" href="${session.cancel_url}">← ${words.cancel}</a>` : ""}
  <h1 class="merchant"><span class="logo" aria-hidden="true">${merchant.slice(0, 1).toUpperCase()}</span>${merchant}</h1>
  <p class="muted">${subscribing ? words.subscribe : words.pay}</p>
  ${
    trialDays
      ? html`<p class="total" data-testid="total">${trialDays} days free</p>`
      : converted
        ? html`<p class="total" data-testid="total"><span>${total}</span><span class="muted small">${recurring}</span></p>`
        : html`<p class="total" data-testid="total"><span data-total>${total}</span><span class="muted small">${recurring}</span></p>`
  }
  ${conversionNote(session, view)}
  <ul class="items">
    ${lineItems.map(
      (item) =>
        html`<li><span>${item.description}${(item.quantity ?? 1) > 1 ? html` <span class="muted">× ${item.quantity}</span>` : ""}</span><span>${formatAmount(item.amount_subtotal, item.currency)}${intervalLabel(item.price)}</span></li>`,
    )}
    ${taxInSummary ? html`<li><span>Subtotal</span><span>${formatAmount(session.amount_subtotal ?? 0, currency)}</span></li>` : ""}
    ${discount > 0 && !trialDays ? html`<li><span>Discount</span><span>−${formatAmount(discount, currency)}</span></li>` : ""}
    ${taxRow}
    <li><span>${words.totalDueToday}</span>${converted ? html`<span>${total}</span>` : html`<span data-total>${total}</span>`}</li>
  </ul>
</section>
<section class="card" aria-label="Payment">
  <h2>${words.payWithCard}</h2>
  <form method="post" novalidate>
    ${view.offered ? html`<input type="hidden" name="currency" value="${view.showing}">` : ""}
    <label for="email">Email</label>
    <input type="email" id="email" name="email" autocomplete="email" required value="${email}">
    ${
      collectAddress
        ? addressFields(
            form,
            {
              country: customer?.address?.country ?? "",
              state: customer?.address?.state ?? "",
              name: customer?.name ?? "",
            },
            fieldError,
            { line1AndCity: session.billing_address_collection === "required" },
          )
        : ""
    }
    ${session.tax_id_collection?.enabled ? businessFields(form, fieldError) : ""}
    ${cardFields(form, error)}
    ${collectsPromotions(session) ? promotionsField(merchant, form) : ""}
    ${terms ? termsField(merchant, session.custom_text.terms_of_service_acceptance?.message ?? null, form, fieldError) : ""}
    <button class="button" type="submit" id="pay"${subscribing || converted ? "" : html` data-pay="1"`}>${subscribing ? words.subscribe : `${words.pay} ${total}`}</button>
    ${submitText ? html`<p class="hint" data-testid="submit-text">${customText(submitText)}</p>` : ""}
    ${afterSubmitText ? html`<p class="hint" data-testid="after-submit-text">${customText(afterSubmitText)}</p>` : ""}
  </form>
  ${TEST_CARDS_HINT}
</section>
</div></main>
${preview}
${collectsPromotions(session) ? consentScript(`/c/pay/${session.id}/consent`) : ""}`,
    words.lang,
  );
}

/** Shows the business fields when the box is ticked (pages without the tax preview). */
const businessToggleScript = html`<script>(function(){var b=document.getElementById("business"),f=document.getElementById("business-fields"),c=document.getElementById("country"),s=document.getElementById("state-field");function u(){if(b&&f)f.hidden=!b.checked;if(c&&s)s.hidden=c.value!=="US"}[b,c].forEach(function(n){if(n)n.addEventListener("change",u)});u()})();</script>`;

/** `consent_collection[promotions]=auto`: the box asking to hear from the merchant (unticked by default). */
function promotionsField(merchant: string, form: PayForm): Html {
  return html`<div class="check"><input type="checkbox" id="promotions" name="promotions"${form.promotions === "on" ? " checked" : ""}><label for="promotions">Keep me updated with news and offers from ${merchant}</label></div>`;
}

/** Saves the email and the promotions box as they change (the page works without it; paying sends both). */
function consentScript(action: string): Html {
  return html`<script>(function(){var e=document.getElementById("email"),p=document.getElementById("promotions");function s(){if(!e||!p||!e.value)return;var b=new URLSearchParams();b.set("email",e.value);b.set("promotions",p.checked?"on":"off");fetch(${new Html(JSON.stringify(action))},{method:"POST",body:b}).catch(function(){})}[e,p].forEach(function(n){if(n)n.addEventListener("change",s)})})();</script>`;
}
