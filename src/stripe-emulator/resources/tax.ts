import { z } from "zod";
import {
  createRegistration,
  refreshRegistration,
  registrationsOf,
  taxSettingsOf,
  updateRegistration,
  updateTaxSettings,
} from "../actions/tax.js";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { paginate } from "../lists.js";
import { boolean, integer, listParams, parseParams, text } from "../params.js";

const addressSchema = z.strictObject({
  country: text().optional(),
  state: text().optional(),
  line1: text().optional(),
  line2: text().optional(),
  city: text().optional(),
  postal_code: text().optional(),
});

const settingsSchema = z.strictObject({
  defaults: z
    .strictObject({
      tax_behavior: z.enum(["inclusive", "exclusive", "inferred_by_currency"]).optional(),
      tax_code: text().optional(),
    })
    .optional(),
  head_office: z.strictObject({ address: addressSchema }).optional(),
});

const timestampOrNow = () => z.union([z.literal("now"), integer()]);

const registrationSchema = z.strictObject({
  country: text().optional(),
  country_options: z
    .record(
      z.string(),
      z.strictObject({
        type: text().optional(),
        state: text().optional(),
        standard: z.strictObject({ place_of_supply_scheme: z.enum(["standard", "small_seller"]) }).optional(),
      }),
    )
    .optional(),
  active_from: timestampOrNow().optional(),
  expires_at: timestampOrNow().optional(),
});

const registrationUpdateSchema = z.strictObject({
  active_from: timestampOrNow().optional(),
  expires_at: z.union([timestampOrNow(), z.literal("").transform(() => null)]).optional(),
});

const registrationListSchema = z.strictObject({
  ...listParams,
  status: z.enum(["active", "all", "expired", "scheduled"]).optional(),
});

const taxRateListSchema = z.strictObject({
  ...listParams,
  active: boolean().optional(),
  inclusive: boolean().optional(),
});

export function registerTax(routes: ApiRoutes, emulator: Emulator): void {
  routes.get("/v1/tax/settings", ({ account }) => taxSettingsOf(emulator, account));

  routes.post("/v1/tax/settings", ({ account, params, origin }) => {
    const input = parseParams(settingsSchema, params);
    return updateTaxSettings(
      emulator,
      account,
      { defaults: input.defaults, headOffice: input.head_office?.address },
      origin,
    );
  });

  routes.post("/v1/tax/registrations", ({ account, params }) => {
    const input = parseParams(registrationSchema, params);
    return createRegistration(emulator, account, {
      country: input.country,
      countryOptions: input.country_options,
      activeFrom: input.active_from,
      expiresAt: input.expires_at,
    });
  });

  routes.get("/v1/tax/registrations", ({ account, params }) => {
    const input = parseParams(registrationListSchema, params);
    const status = input.status ?? "all";
    const registrations = registrationsOf(emulator, account).filter(
      (registration) => status === "all" || registration.status === status,
    );
    return paginate(registrations, input, "/v1/tax/registrations", "tax.registration");
  });

  routes.get("/v1/tax/registrations/:id", ({ account, id }) =>
    refreshRegistration(
      emulator,
      account,
      emulator.store.get("taxRegistrations", account, id, "tax.registration"),
    ),
  );

  // The rates Stripe Tax made for this account's sessions and invoices (read-only here).
  routes.get("/v1/tax_rates/:id", ({ account, id }) =>
    emulator.store.get("taxRates", account, id, "tax_rate"),
  );

  routes.get("/v1/tax_rates", ({ account, params }) => {
    const input = parseParams(taxRateListSchema, params);
    const rates = emulator.store
      .list("taxRates", account)
      .filter((rate) => input.active === undefined || rate.active === input.active)
      .filter((rate) => input.inclusive === undefined || rate.inclusive === input.inclusive);
    return paginate(rates, input, "/v1/tax_rates", "tax_rate");
  });

  routes.post("/v1/tax/registrations/:id", ({ account, id, params }) => {
    const registration = emulator.store.get("taxRegistrations", account, id, "tax.registration");
    const input = parseParams(registrationUpdateSchema, params);
    return updateRegistration(emulator, account, registration, {
      activeFrom: input.active_from,
      expiresAt: input.expires_at,
    });
  });
}
