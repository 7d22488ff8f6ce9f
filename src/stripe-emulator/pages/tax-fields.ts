import { EU_MEMBERS, formatRate, TAX_RULES } from "../tax/calculate.js";
import { Html, html } from "./layout.js";

// The billing address, business and terms fields of the hosted Checkout page, and the small script
// that updates the tax line while the buyer picks a country (the server computes again on submit).

export const COUNTRIES: readonly string[] = [
  ...EU_MEMBERS,
  "AU",
  "CA",
  "CH",
  "GB",
  "IN",
  "JP",
  "MX",
  "NO",
  "NZ",
  "SG",
  "US",
];

export const US_STATES: Record<string, string> = {
  AL: "Alabama",
  AK: "Alaska",
  AZ: "Arizona",
  AR: "Arkansas",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DE: "Delaware",
  DC: "District of Columbia",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  IA: "Iowa",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  ME: "Maine",
  MD: "Maryland",
  MA: "Massachusetts",
  MI: "Michigan",
  MN: "Minnesota",
  MS: "Mississippi",
  MO: "Missouri",
  MT: "Montana",
  NE: "Nebraska",
  NV: "Nevada",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NY: "New York",
  NC: "North Carolina",
  ND: "North Dakota",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VT: "Vermont",
  VA: "Virginia",
  WA: "Washington",
  WV: "West Virginia",
  WI: "Wisconsin",
  WY: "Wyoming",
};

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });

export function countryName(code: string): string {
  return countryNames.of(code) ?? code;
}

export function sortedCountries(): string[] {
  return [...COUNTRIES].sort((a, b) => countryName(a).localeCompare(countryName(b)));
}

export interface AddressForm {
  name?: string;
  country?: string;
  state?: string;
  postal_code?: string;
  line1?: string;
  city?: string;
  business?: string;
  business_name?: string;
  tax_id?: string;
  terms?: string;
}

/** One field's error: shown under it, announced, and tied to it with `aria-describedby`. */
export interface FieldError {
  param: string;
  message: string;
}

function errorFor(field: string, error: FieldError | undefined): Html {
  return error?.param === field
    ? html`<p class="field-error" id="${field}-error" role="alert">${error.message}</p>`
    : html``;
}

function invalid(field: string, error: FieldError | undefined): Html {
  return error?.param === field ? html` aria-invalid="true" aria-describedby="${field}-error"` : html``;
}

export function addressFields(
  form: AddressForm,
  defaults: { country: string; state: string; name: string },
  error: FieldError | undefined,
  required: { line1AndCity: boolean },
): Html {
  const country = form.country ?? defaults.country;
  const state = form.state ?? defaults.state;
  return html`<fieldset class="group">
    <legend>Billing address</legend>
    <label for="name">Full name</label>
    <input type="text" id="name" name="name" autocomplete="name" required value="${form.name ?? defaults.name}"${invalid("name", error)}>
    ${errorFor("name", error)}
    <label for="country">Country or region</label>
    <select id="country" name="country" autocomplete="country" required${invalid("country", error)}>
      <option value=""${country ? "" : html` selected`}>Select…</option>
      ${sortedCountries().map((code) => html`<option value="${code}"${code === country ? html` selected` : ""}>${countryName(code)}</option>`)}
    </select>
    ${errorFor("country", error)}
    <div id="state-field"${country === "US" ? "" : html` hidden`}>
      <label for="state">State</label>
      <select id="state" name="state" autocomplete="address-level1"${invalid("state", error)}>
        <option value="">Select…</option>
        ${Object.entries(US_STATES).map(([code, name]) => html`<option value="${code}"${code === state ? html` selected` : ""}>${name}</option>`)}
      </select>
      ${errorFor("state", error)}
    </div>
    <label for="line1">Address${required.line1AndCity ? "" : html` <span class="muted">(optional)</span>`}</label>
    <input type="text" id="line1" name="line1" autocomplete="address-line1" value="${form.line1 ?? ""}"${required.line1AndCity ? html` required` : ""}${invalid("line1", error)}>
    ${errorFor("line1", error)}
    <div class="row2">
      <div>
        <label for="city">City${required.line1AndCity ? "" : html` <span class="muted">(optional)</span>`}</label>
        <input type="text" id="city" name="city" autocomplete="address-level2" value="${form.city ?? ""}"${required.line1AndCity ? html` required` : ""}${invalid("city", error)}>
        ${errorFor("city", error)}
      </div>
      <div>
        <label for="postal_code">Postal code</label>
        <input type="text" id="postal_code" name="postal_code" autocomplete="postal-code" value="${form.postal_code ?? ""}"${invalid("postal_code", error)}>
        ${errorFor("postal_code", error)}
      </div>
    </div>
  </fieldset>`;
}

export function businessFields(form: AddressForm, error: FieldError | undefined): Html {
  const checked = form.business === "on";
  return html`<div class="check">
      <input type="checkbox" id="business" name="business"${checked ? html` checked` : ""} aria-controls="business-fields">
      <label for="business">I'm purchasing as a business</label>
    </div>
    <div id="business-fields"${checked ? "" : html` hidden`}>
      <label for="business_name">Business name</label>
      <input type="text" id="business_name" name="business_name" autocomplete="organization" value="${form.business_name ?? ""}"${invalid("business_name", error)}>
      ${errorFor("business_name", error)}
      <label for="tax_id">Tax ID <span class="muted">(optional, e.g. DE123456789)</span></label>
      <input type="text" id="tax_id" name="tax_id" value="${form.tax_id ?? ""}"${invalid("tax_id", error)}>
      ${errorFor("tax_id", error)}
    </div>`;
}

/** `[text](https://…)` links of Stripe's custom text, the rest escaped. */
export function customText(message: string): Html {
  const parts: (string | Html)[] = [];
  const pattern = /\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g;
  let last = 0;
  for (const match of message.matchAll(pattern)) {
    parts.push(message.slice(last, match.index));
    parts.push(html`<a href="${match[2]}" target="_blank" rel="noopener">${match[1]}</a>`);
    last = match.index + match[0].length;
  }
  parts.push(message.slice(last));
  return html`${parts}`;
}

export function termsField(
  merchant: string,
  message: string | null,
  form: AddressForm,
  error: FieldError | undefined,
): Html {
  return html`<div class="check terms">
      <input type="checkbox" id="terms" name="terms" required${form.terms === "on" ? html` checked` : ""}${invalid("terms_of_service", error)}>
      <label for="terms">${message ? customText(message) : `I agree to ${merchant}'s Terms of Service`}</label>
    </div>
    ${error?.param === "terms_of_service" ? html`<p class="field-error" id="terms_of_service-error" role="alert">${error.message}</p>` : ""}`;
}

/** What the preview script needs: the lines after discounts, the rules and where the account collects. */
export interface TaxPreviewData {
  currency: string;
  subtotal: number;
  discount: number;
  lines: { amount: number; inclusive: boolean }[];
  coverage: { country: string; type: string; state: string | null }[];
  taxExempt: "none" | "exempt" | "reverse";
  customerEuVat: boolean;
  eu: readonly string[];
  rules: { country: string; state: string | null; rate: number; label: string }[];
}

export function previewData(base: Omit<TaxPreviewData, "eu" | "rules">): TaxPreviewData {
  return {
    ...base,
    eu: EU_MEMBERS,
    rules: TAX_RULES.map((rule) => ({
      country: rule.country,
      state: rule.state,
      rate: rule.rate,
      label: `${rule.taxType === "vat" ? "VAT" : "Sales tax"} (${formatRate(rule.rate)})`,
    })),
  };
}

/**
 * Mirrors tax/calculate.ts for the summary while the buyer types; the server's numbers on submit are
 * the ones that count. Integer arithmetic, half-up, as there.
 */
export function previewScript(data: TaxPreviewData): Html {
  const json = JSON.stringify(data).replaceAll("<", "\\u003c");
  return html`<script>(function(){
var d=${new Html(json)};
var $=function(id){return document.getElementById(id)};
var fmt=function(v){return new Intl.NumberFormat("en-US",{style:"currency",currency:d.currency.toUpperCase()}).format(v/100)};
var half=function(n,q){return Math.floor((2*n+q)/(2*q))};
function covered(c,s){return d.coverage.some(function(r){if(c==="US")return r.country==="US"&&r.state===s;if(r.country===c)return true;return d.eu.indexOf(c)>=0&&d.eu.indexOf(r.country)>=0&&(r.type==="oss_union"||r.type==="oss_non_union")})}
function update(){
  var c=$("country").value,s=c==="US"?$("state").value:null;
  $("state-field").hidden=c!=="US";
  var biz=$("business"),vat=biz&&biz.checked&&/^[A-Z]{2}/.test(($("tax_id").value||"").replace(/[\\s.-]/g,"").toUpperCase());
  if(biz)$("business-fields").hidden=!biz.checked;
  var rule=d.rules.filter(function(r){return r.country===c&&(r.state===null||r.state===s)})[0];
  var label,rate=0;
  if(!c||(c==="US"&&!s)){label="Enter address to calculate"}
  else if(!covered(c,s)){label="Not collected"}
  else if(d.taxExempt==="exempt"){label="Exempt"}
  else if(d.taxExempt==="reverse"||((vat||d.customerEuVat)&&d.eu.indexOf(c)>=0)){label="Reverse charge"}
  else if(rule){label=rule.label;rate=rule.rate}
  else{label="Not collected"}
  var tax=0,extra=0;
  d.lines.forEach(function(l){if(rate<=0||l.amount<=0)return;var t=l.inclusive?half(l.amount*rate,100000+rate):half(l.amount*rate,100000);tax+=t;if(!l.inclusive)extra+=t});
  var total=d.subtotal-d.discount+extra;
  $("tax-label").textContent=rate>0?label:"Tax";
  $("tax-amount").textContent=rate>0?(d.lines.every(function(l){return l.inclusive})?"incl. ":"")+fmt(tax):label;
  $("tax-amount").className=rate>0?"":"muted";
  [].forEach.call(document.querySelectorAll("[data-total]"),function(n){n.textContent=fmt(total)});
  var pay=$("pay");if(pay&&pay.dataset.pay)pay.textContent="Pay "+fmt(total);
}
["country","state","business","tax_id"].forEach(function(id){var n=$(id);if(n){n.addEventListener("change",update);n.addEventListener("input",update)}});
update();
})();</script>`;
}
