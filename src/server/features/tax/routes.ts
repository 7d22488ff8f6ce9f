import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { storeTaxSettingsInputSchema, storeTaxSettingsSchema } from "../../../contracts/tax";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { saveStoreTaxSettings, storeTaxSettingsView, type TaxSettingsDeps } from "./store-tax-settings";

/** The seller's tax settings and Stripe Tax checklist. */
export function registerTaxRoutes(
  app: FastifyInstance,
  deps: TaxSettingsDeps & { auth: Auth; now: () => Date },
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get("/api/store-tax", { schema: { response: { 200: storeTaxSettingsSchema } } }, async (request) => {
    const seller = await requireUser(deps.auth, request);
    return storeTaxSettingsView(deps, seller.id, deps.now());
  });
  routes.put(
    "/api/store-tax",
    { schema: { body: storeTaxSettingsInputSchema, response: { 200: storeTaxSettingsSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return saveStoreTaxSettings(deps, seller.id, request.body, deps.now());
    },
  );
}
