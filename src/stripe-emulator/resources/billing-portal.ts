import type Stripe from "stripe";
import { z } from "zod";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { newId } from "../ids.js";
import { parseParams, requiredText, text } from "../params.js";

/** The emulator has one portal configuration, standing in for the platform's default. */
export const PORTAL_CONFIGURATION_ID = "bpc_emulatordefault";

const createSchema = z.strictObject({
  customer: requiredText(),
  return_url: text().optional(),
  configuration: text().optional(),
  locale: text().optional(),
  on_behalf_of: text().optional(),
});

export function registerBillingPortal(routes: ApiRoutes, emulator: Emulator): void {
  routes.post("/v1/billing_portal/sessions", ({ account, params }) => {
    const input = parseParams(createSchema, params);
    emulator.store.get("customers", account, input.customer, "customer", "customer");
    const id = newId("bps");
    const session: Stripe.BillingPortal.Session = {
      id,
      object: "billing_portal.session",
      configuration: input.configuration ?? PORTAL_CONFIGURATION_ID,
      created: emulator.now(),
      customer: input.customer,
      customer_account: null,
      flow: null,
      livemode: false,
      locale: input.locale ?? null,
      on_behalf_of: input.on_behalf_of ?? null,
      return_url: input.return_url ?? null,
      url: `${emulator.publicUrl}/p/session/${id}`,
    };
    emulator.store.put("portalSessions", account, session);
    return session;
  });
}
