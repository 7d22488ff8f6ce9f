import { z } from "zod";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { newId } from "../ids.js";
import { paginate } from "../lists.js";
import { buildCustomer } from "../objects/customer.js";
import { emptyable, listParams, mergeMetadata, metadata, parseParams, text } from "../params.js";

const customerFields = {
  email: emptyable().optional(),
  name: emptyable().optional(),
  description: emptyable().optional(),
  phone: emptyable().optional(),
  metadata: metadata().optional(),
  preferred_locales: z.array(z.string()).optional(),
};

const createSchema = z.strictObject(customerFields);
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
    store.put("customers", account, customer);
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
