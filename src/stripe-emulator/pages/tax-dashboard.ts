import type { FastifyInstance, FastifyReply } from "fastify";
import type Stripe from "stripe";
import {
  coverageOf,
  createRegistration,
  registrationsOf,
  taxSettingsOf,
  updateRegistration,
  updateTaxSettings,
} from "../actions/tax.js";
import type { Emulator } from "../emulator.js";
import { StripeApiError } from "../errors.js";
import { AUTOMATIC } from "../webhooks/events.js";
import { merchantName } from "./checkout.js";
import { formatDate, html, layout, messagePage } from "./layout.js";
import { countryName, sortedCountries, US_STATES } from "./tax-fields.js";

// The Dashboard's tax settings (https://dashboard.stripe.com/settings/tax and …/settings/tax/registrations)
// for a connected account, as a plain page: the head office, the registrations, adding and ending one.
// It changes things through the same actions as the API, so the same events go out.

interface TaxForm {
  country?: string;
  state?: string;
  line1?: string;
  city?: string;
  postal_code?: string;
  type?: string;
}

const TYPES: [string, string][] = [
  ["standard", "Standard (domestic)"],
  ["oss_union", "OSS Union scheme (all EU)"],
  ["oss_non_union", "OSS non-Union (all EU)"],
  ["ioss", "Import OSS"],
  ["state_sales_tax", "US state sales tax"],
];

const NOTICES: Record<string, string> = {
  head_office: "Head office saved. Stripe Tax is active.",
  registration: "Registration added.",
  ended: "Registration ended.",
};

export function registerTaxDashboardPage(app: FastifyInstance, emulator: Emulator): void {
  const accountOf = (reply: FastifyReply, id: string | undefined) => {
    const account = id ? emulator.store.state.accounts[id] : undefined;
    if (!account) {
      reply
        .status(404)
        .type("text/html")
        .send(
          messagePage("Account not found", "Open this page with ?account=acct_… of a connected account."),
        );
    }
    return account;
  };
  const back = (reply: FastifyReply, account: string, notice: string) =>
    reply.redirect(`/dashboard/tax?account=${encodeURIComponent(account)}&notice=${notice}`, 303);
  const failed = (
    reply: FastifyReply,
    account: Stripe.Account,
    error: unknown,
    form: TaxForm,
    section: string,
  ) => {
    if (!(error instanceof StripeApiError)) throw error;
    return reply
      .status(400)
      .type("text/html")
      .send(taxPage(emulator, account, { error: error.message, section, form }));
  };

  app.get<{ Querystring: { account?: string; notice?: string } }>("/dashboard/tax", (request, reply) => {
    const account = accountOf(reply, request.query.account);
    if (!account) return reply;
    return reply
      .type("text/html")
      .send(taxPage(emulator, account, { notice: NOTICES[request.query.notice ?? ""] }));
  });

  app.post<{ Querystring: { account?: string }; Body: TaxForm }>(
    "/dashboard/tax/head_office",
    (request, reply) => {
      const account = accountOf(reply, request.query.account);
      if (!account) return reply;
      const form = request.body ?? {};
      try {
        updateTaxSettings(
          emulator,
          account.id,
          {
            headOffice: {
              country: form.country ?? "",
              state: form.country === "US" ? form.state || null : null,
              line1: form.line1 || null,
              city: form.city || null,
              postal_code: form.postal_code || null,
            },
          },
          AUTOMATIC,
        );
      } catch (error) {
        return failed(reply, account, error, form, "head_office");
      }
      return back(reply, account.id, "head_office");
    },
  );

  app.post<{ Querystring: { account?: string }; Body: TaxForm }>(
    "/dashboard/tax/registrations",
    (request, reply) => {
      const account = accountOf(reply, request.query.account);
      if (!account) return reply;
      const form = request.body ?? {};
      const country = (form.country ?? "").toUpperCase();
      try {
        createRegistration(emulator, account.id, {
          country: country || undefined,
          countryOptions: country
            ? {
                [country.toLowerCase()]: {
                  type: form.type,
                  state: country === "US" ? form.state || undefined : undefined,
                },
              }
            : undefined,
          activeFrom: "now",
        });
      } catch (error) {
        return failed(reply, account, error, form, "registration");
      }
      return back(reply, account.id, "registration");
    },
  );

  app.post<{ Params: { id: string }; Querystring: { account?: string } }>(
    "/dashboard/tax/registrations/:id/expire",
    (request, reply) => {
      const account = accountOf(reply, request.query.account);
      if (!account) return reply;
      const registration = emulator.store.find("taxRegistrations", account.id, request.params.id);
      if (!registration)
        return reply.status(404).type("text/html").send(messagePage("Not found", "No such registration."));
      try {
        updateRegistration(emulator, account.id, registration, { expiresAt: "now" });
      } catch (error) {
        return failed(reply, account, error, {}, "list");
      }
      return back(reply, account.id, "ended");
    },
  );
}

function place(registration: Stripe.Tax.Registration): string {
  const coverage = coverageOf(registration);
  const where = coverage.state
    ? `${US_STATES[coverage.state] ?? coverage.state}, ${countryName("US")}`
    : countryName(coverage.country);
  return where;
}

function taxPage(
  emulator: Emulator,
  account: Stripe.Account,
  state: { notice?: string | undefined; error?: string; section?: string; form?: TaxForm },
): string {
  const settings = taxSettingsOf(emulator, account.id);
  const address = settings.head_office?.address;
  const registrations = registrationsOf(emulator, account.id);
  const form = state.form ?? {};
  const headForm = state.section === "head_office" ? form : {};
  const regForm = state.section === "registration" ? form : {};
  const headCountry = headForm.country ?? address?.country ?? "";
  const headState = headForm.state ?? address?.state ?? "";
  const query = `?account=${encodeURIComponent(account.id)}`;
  const errorBox = (section: string) =>
    state.error && state.section === section
      ? html`<div class="error" role="alert">${state.error}</div>`
      : "";
  const countryOptions = (selected: string) =>
    html`<option value="">Select…</option>${sortedCountries().map(
      (code) =>
        html`<option value="${code}"${code === selected ? html` selected` : ""}>${countryName(code)}</option>`,
    )}`;
  const stateOptions = (selected: string) =>
    html`<option value="">Select…</option>${Object.entries(US_STATES).map(
      ([code, name]) =>
        html`<option value="${code}"${code === selected ? html` selected` : ""}>${name}</option>`,
    )}`;
  return layout(
    "Tax settings",
    html`<main class="page narrow stack">
<div>
  <p class="muted small">Stripe Dashboard (emulated) · ${merchantName(emulator, account.id)} · <code>${account.id}</code></p>
  <h1>Tax settings</h1>
  <p class="muted small">In live mode this is <a href="https://dashboard.stripe.com/settings/tax">dashboard.stripe.com/settings/tax</a>.</p>
  <p>Status: ${settings.status === "active" ? html`<span class="badge">Active</span>` : html`<span class="badge warn">Pending: add your head office</span>`}</p>
  ${state.notice ? html`<div class="notice" role="status">${state.notice}</div>` : ""}
</div>
<section class="card" aria-labelledby="head-office-title">
  <h2 id="head-office-title">Head office</h2>
  <p class="muted small">${address ? `Now: ${[address.line1, address.city, address.postal_code, address.state, address.country ? countryName(address.country) : null].filter(Boolean).join(", ")}` : "Not set yet."}</p>
  ${errorBox("head_office")}
  <form method="post" action="/dashboard/tax/head_office${query}">
    <label for="ho-country">Country</label>
    <select id="ho-country" name="country" required data-state="ho-state-field">${countryOptions(headCountry)}</select>
    <div id="ho-state-field"${headCountry === "US" ? "" : html` hidden`}>
      <label for="ho-state">State</label>
      <select id="ho-state" name="state">${stateOptions(headState)}</select>
    </div>
    <label for="ho-line1">Address <span class="muted">(optional)</span></label>
    <input type="text" id="ho-line1" name="line1" value="${headForm.line1 ?? address?.line1 ?? ""}">
    <div class="row2">
      <div><label for="ho-city">City <span class="muted">(optional)</span></label><input type="text" id="ho-city" name="city" value="${headForm.city ?? address?.city ?? ""}"></div>
      <div><label for="ho-postal">Postal code <span class="muted">(optional)</span></label><input type="text" id="ho-postal" name="postal_code" value="${headForm.postal_code ?? address?.postal_code ?? ""}"></div>
    </div>
    <button class="button" type="submit">Save head office</button>
  </form>
</section>
<section class="card" aria-labelledby="registrations-title">
  <h2 id="registrations-title">Registrations</h2>
  <p class="muted small">Tax is collected only where you are registered. Live: <a href="https://dashboard.stripe.com/settings/tax/registrations">dashboard.stripe.com/settings/tax/registrations</a>.</p>
  ${errorBox("list")}
  ${
    registrations.length === 0
      ? html`<p class="muted">No registrations yet.</p>`
      : html`<div class="scroll"><table class="list" data-testid="registrations">
    <thead><tr><th scope="col">Location</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
    <tbody>${registrations.map(
      (registration) => html`<tr>
        <td>${place(registration)}</td>
        <td>${coverageOf(registration).type}</td>
        <td>${registration.status}${registration.expires_at ? html`<br><span class="muted small">until ${formatDate(registration.expires_at)}</span>` : ""}</td>
        <td>${
          registration.status === "expired"
            ? ""
            : html`<form method="post" action="/dashboard/tax/registrations/${registration.id}/expire${query}"><button class="button secondary small-button" type="submit" aria-label="End the ${place(registration)} registration">End</button></form>`
        }</td>
      </tr>`,
    )}</tbody></table></div>`
  }
  <h3>Add a registration</h3>
  ${errorBox("registration")}
  <form method="post" action="/dashboard/tax/registrations${query}">
    <label for="reg-country">Country</label>
    <select id="reg-country" name="country" required data-state="reg-state-field">${countryOptions(regForm.country ?? "")}</select>
    <div id="reg-state-field"${regForm.country === "US" ? "" : html` hidden`}>
      <label for="reg-state">State</label>
      <select id="reg-state" name="state">${stateOptions(regForm.state ?? "")}</select>
    </div>
    <label for="reg-type">Type</label>
    <select id="reg-type" name="type" required>${TYPES.map(
      ([value, label]) =>
        html`<option value="${value}"${value === (regForm.type ?? "standard") ? html` selected` : ""}>${label}</option>`,
    )}</select>
    <button class="button" type="submit">Add registration (active now)</button>
  </form>
</section>
</main>
<script>document.querySelectorAll("select[data-state]").forEach(function(s){var f=document.getElementById(s.dataset.state);function u(){f.hidden=s.value!=="US"}s.addEventListener("change",u);u()});</script>`,
  );
}
