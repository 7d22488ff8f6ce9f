import type Stripe from "stripe";
import { z } from "zod";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { newId } from "../ids.js";
import { paginate } from "../lists.js";
import { buildCustomer } from "../objects/customer.js";
import { buildAddress, buildTaxId } from "../objects/tax.js";
import { emptyable, list, listParams, mergeMetadata, metadata, parseParams, text } from "../params.js";
import type { Scope } from "../state/types.js";

const addressSchema = z.union([
  z.literal(""),
  z.strictObject({
    city: text().optional(),
    country: text().optional(),
    line1: text().optional(),
    line2: text().optional(),
    postal_code: text().optional(),
    state: text().optional(),
  }),
]);

/** The tax id types the emulator takes (Stripe takes many more; these cover the EU, GB and US). */
const TAX_ID_TYPES = ["eu_vat", "gb_vat", "us_ein", "unknown"] as const;

const taxIdDataSchema = z.strictObject({ type: z.enum(TAX_ID_TYPES), value: text() });

const customerFields = {
  email: emptyable().optional(),
  name: emptyable().optional(),
  description: emptyable().optional(),
  phone: emptyable().optional(),
  metadata: metadata().optional(),
  preferred_locales: z.array(z.string()).optional(),
  address: addressSchema.optional(),
  tax_exempt: z
    .union([z.enum(["none", "exempt", "reverse"]), z.literal("").transform(() => "none" as const)])
    .optional(),
};

const createSchema = z.strictObject({ ...customerFields, tax_id_data: list(taxIdDataSchema).optional() });
const updateSchema = z.strictObject(customerFields);
const listSchema = z.strictObject({ ...listParams, email: text().optional() });

export function registerCustomers(routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;

  routes.post("/v1/customers", ({ account, params, origin }) => {
    const input = parseParams(createSchema, params);
    const customer = buildCustomer(newId("cus"), emulator.now(), {
      email: input.email ?? null,
      name: input.name ?? null,
      description: input.description ?? null,
      phone: input.phone ?? null,
      metadata: mergeMetadata({}, input.metadata),
    });
    if (input.preferred_locales) customer.preferred_locales = input.preferred_locales;
    if (input.address !== undefined)
      customer.address = input.address === "" ? null : buildAddress(input.address);
    if (input.tax_exempt) customer.tax_exempt = input.tax_exempt;
    store.put("customers", account, customer);
    for (const data of input.tax_id_data ?? []) addTaxId(emulator, account, customer, data);
    emulator.events.emit(account, { type: "customer.created", data: { object: customer } }, origin);
    return customer;
  });

  routes.get("/v1/customers/:id", ({ account, id }) => store.get("customers", account, id, "customer"));

  routes.post("/v1/customers/:id", ({ account, params, id }) => {
    const customer = store.get("customers", account, id, "customer");
    const input = parseParams(updateSchema, params);
    if (input.email !== undefined) customer.email = input.email;
    if (input.name !== undefined) customer.name = input.name;
    if (input.description !== undefined) customer.description = input.description;
    if (input.phone !== undefined) customer.phone = input.phone;
    if (input.preferred_locales) customer.preferred_locales = input.preferred_locales;
    if (input.address !== undefined)
      customer.address = input.address === "" ? null : buildAddress(input.address);
    if (input.tax_exempt) customer.tax_exempt = input.tax_exempt;
    customer.metadata = mergeMetadata(customer.metadata, input.metadata);
    store.put("customers", account, customer);
    return customer;
  });

  routes.get("/v1/customers", ({ account, params }) => {
    const input = parseParams(listSchema, params);
    const customers = store
      .list("customers", account)
      .filter((customer) => input.email === undefined || customer.email === input.email);
    return paginate(customers, input, "/v1/customers", "customer");
  });
}

/** A tax id on a customer (`tax_id_data` on create, or what a buyer typed in Checkout). */
export function addTaxId(
  emulator: Emulator,
  account: Scope,
  customer: Stripe.Customer,
  data: { type: Stripe.TaxId.Type; value: string },
): Stripe.TaxId {
  const taxId = buildTaxId(newId("txi"), emulator.now(), { customer: customer.id, ...data });
  emulator.store.put("taxIds", account, taxId);
  return taxId;
}

/** The customer's tax ids, newest first: the expandable `tax_ids` list. */
export function customerTaxIds(emulator: Emulator, account: Scope, customer: string): Stripe.TaxId[] {
  return emulator.store.list("taxIds", account).filter((taxId) => taxId.customer === customer);
}
