import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { storeCurrencyInputSchema, storeCurrencySettingsSchema } from "../../../contracts/currencies";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { getStoreCurrencySettings, type StoreCurrencyDeps, updateStoreCurrency } from "./store-currency";

export function registerStoreCurrencyRoutes(app: FastifyInstance, deps: StoreCurrencyDeps & { auth: Auth }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    "/api/store-currency",
    { schema: { response: { 200: storeCurrencySettingsSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return getStoreCurrencySettings(deps, seller.id, deps.now());
    },
  );
  api.put(
    "/api/store-currency",
    { schema: { body: storeCurrencyInputSchema, response: { 200: storeCurrencySettingsSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return updateStoreCurrency(deps, seller.id, request.body);
    },
  );
}
