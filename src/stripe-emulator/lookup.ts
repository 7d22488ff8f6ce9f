import { checkoutBreakdown, lineItemTaxes } from "./actions/checkout-tax.js";
import { invoicePayments } from "./actions/invoices.js";
import type { Emulator } from "./emulator.js";
import type { Json, JsonObject } from "./expand.js";
import { embeddedList } from "./lists.js";
import { customerTaxIds } from "./resources/customers.js";
import type { OwnedCollectionName, Scope } from "./state/types.js";

/** Which collection an id belongs to, by Stripe's prefixes. */
const COLLECTION_BY_PREFIX: [string, OwnedCollectionName][] = [
  ["cus_", "customers"],
  ["prod_", "products"],
  ["price_", "prices"],
  ["cs_", "checkoutSessions"],
  ["pi_", "paymentIntents"],
  ["ch_", "charges"],
  ["re_", "refunds"],
  ["dp_", "disputes"],
  ["sub_", "subscriptions"],
  ["in_", "invoices"],
  ["bps_", "portalSessions"],
  ["bpc_", "portalConfigurations"],
  ["txn_", "balanceTransactions"],
  ["di_", "discounts"],
  ["ii_", "invoiceItems"],
  ["inpay_", "invoicePayments"],
  ["taxreg_", "taxRegistrations"],
  ["txi_", "taxIds"],
  ["txr_", "taxRates"],
  ["file_", "files"],
];

export function toJson(value: object): Json {
  return JSON.parse(JSON.stringify(value));
}

/** The object an expandable field points at, as JSON, if it exists in the caller's account. */
export function resolveExpansion(emulator: Emulator, account: Scope) {
  const sessionBreakdown = (parents: readonly JsonObject[]) => {
    const session = parents.at(-1);
    if (session?.object !== "checkout.session" || typeof session.id !== "string") return undefined;
    return checkoutBreakdown(emulator, session.id);
  };
  return (
    holder: JsonObject,
    field: string,
    value: Json | undefined,
    parents: readonly JsonObject[],
  ): Json | undefined => {
    if (field === "line_items" && holder.object === "checkout.session" && typeof holder.id === "string") {
      const details = emulator.store.state.checkoutDetails[holder.id];
      if (!details) return undefined;
      return toJson(embeddedList(details.lineItems, `/v1/checkout/sessions/${holder.id}/line_items`));
    }
    if (field === "refunds" && holder.object === "charge" && typeof holder.id === "string") {
      const chargeId = holder.id;
      const refunds = emulator.store.list("refunds", account).filter((refund) => refund.charge === chargeId);
      return toJson(embeddedList(refunds, `/v1/charges/${chargeId}/refunds`));
    }
    if (field === "payments" && holder.object === "invoice" && typeof holder.id === "string") {
      const payments = invoicePayments(emulator, account, holder.id);
      return toJson(embeddedList(payments, `/v1/invoices/${holder.id}/payments`));
    }
    if (field === "tax_ids" && holder.object === "customer" && typeof holder.id === "string") {
      const taxIds = customerTaxIds(emulator, account, holder.id);
      return toJson(embeddedList(taxIds, `/v1/customers/${holder.id}/tax_ids`));
    }
    if (field === "breakdown" && typeof value !== "object") {
      const breakdown = sessionBreakdown(parents);
      if (breakdown) return toJson(breakdown);
    }
    if (field === "taxes" && holder.object === "item" && typeof holder.id === "string") {
      const taxes = lineItemTaxes(emulator, holder.id);
      if (taxes) return toJson(taxes);
    }
    if (typeof value !== "string") return undefined;
    if (field === "coupon") {
      const coupon = emulator.store.find("coupons", account, value);
      return coupon ? toJson(coupon) : undefined;
    }
    if (value.startsWith("acct_")) {
      const connected = emulator.store.state.accounts[value];
      return connected && (account === null || account === value) ? toJson(connected) : undefined;
    }
    const collection = COLLECTION_BY_PREFIX.find(([prefix]) => value.startsWith(prefix))?.[1];
    if (!collection) return undefined;
    const found = emulator.store.find(collection, account, value);
    return found ? toJson(found) : undefined;
  };
}
