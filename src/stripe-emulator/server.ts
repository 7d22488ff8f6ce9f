import Fastify, { type FastifyInstance } from "fastify";
import qs from "qs";
import { apiRoutes, sendApiError } from "./api.js";
import { registerControlApi } from "./control.js";
import type { Emulator } from "./emulator.js";
import { StripeApiError } from "./errors.js";
import { registerCheckoutPage } from "./pages/checkout.js";
import { registerInvoicePage } from "./pages/invoice.js";
import { registerOnboardingPage } from "./pages/onboarding.js";
import { registerPortalPage } from "./pages/portal.js";
import { registerReceiptPage } from "./pages/receipt.js";
import { registerTaxDashboardPage } from "./pages/tax-dashboard.js";
import { registerAccounts } from "./resources/accounts.js";
import { registerBillingPortal } from "./resources/billing-portal.js";
import { registerCheckoutSessions } from "./resources/checkout-sessions.js";
import { registerCountrySpecs } from "./resources/country-specs.js";
import { registerCoupons } from "./resources/coupons.js";
import { registerCustomers } from "./resources/customers.js";
import { registerDisputes } from "./resources/disputes.js";
import { registerEvents } from "./resources/events.js";
import { parseMultipart, registerFiles } from "./resources/files.js";
import { registerInvoices } from "./resources/invoices.js";
import { registerPayments } from "./resources/payments.js";
import { registerPrices } from "./resources/prices.js";
import { registerSubscriptions } from "./resources/subscriptions.js";
import { registerTax } from "./resources/tax.js";
import { registerWebhookEndpoints } from "./resources/webhook-endpoints.js";

/** Stripe nests parameters deeply (`line_items[0][price_data][product_data][metadata][k]`). */
const QS_OPTIONS = { depth: 32, arrayLimit: 1000, parameterLimit: 10_000 };

function noSchemas(): never {
  throw new Error("stripe-emulator: routes take no schemas");
}

export function buildServer(emulator: Emulator): FastifyInstance {
  const app = Fastify({
    logger: false,
    routerOptions: { querystringParser: (query) => qs.parse(query, QS_OPTIONS) },
    // No route has a schema (bodies are checked by params.ts), so Fastify's default compilers (Ajv and
    // fast-json-stringify, some hundred modules) are never loaded.
    schemaController: { compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas } },
  });

  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => {
      done(null, qs.parse(typeof body === "string" ? body : body.toString("utf8"), QS_OPTIONS));
    },
  );

  // File uploads (`POST /v1/files`), as the SDK sends them to files.stripe.com: up to Stripe's 16 MB.
  app.addContentTypeParser(
    "multipart/form-data",
    { parseAs: "buffer", bodyLimit: 16 * 1024 * 1024 },
    (request, body, done) => {
      try {
        done(null, parseMultipart(body as Buffer, String(request.headers["content-type"] ?? "")));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );

  // Whatever a request changed is on disk before its response leaves, so a crash loses nothing answered.
  app.addHook("onSend", async (request, reply, payload) => {
    try {
      emulator.store.commit();
      return payload;
    } catch (error) {
      emulator.logger.error(`stripe-emulator: could not save the state: ${String(error)}`);
      const failure = new StripeApiError(
        500,
        "api_error",
        "The local Stripe emulator could not save its state.",
      );
      reply.status(500);
      if (request.url.startsWith("/v1/")) {
        reply.type("application/json");
        return JSON.stringify(failure.toBody());
      }
      reply.type("text/plain");
      return failure.message;
    }
  });

  const routes = apiRoutes(app, emulator);
  registerCustomers(routes, emulator);
  registerPrices(routes, emulator);
  registerAccounts(routes, emulator);
  registerCheckoutSessions(routes, emulator);
  registerSubscriptions(routes, emulator);
  registerInvoices(routes, emulator);
  registerCoupons(routes, emulator);
  registerPayments(routes, emulator);
  registerDisputes(routes, emulator);
  registerFiles(app, routes, emulator);
  registerBillingPortal(routes, emulator);
  registerWebhookEndpoints(routes, emulator);
  registerEvents(routes, emulator);
  registerTax(routes, emulator);
  registerCountrySpecs(routes);

  registerCheckoutPage(app, emulator);
  registerOnboardingPage(app, emulator);
  registerPortalPage(app, emulator);
  registerReceiptPage(app, emulator);
  registerInvoicePage(app, emulator);
  registerTaxDashboardPage(app, emulator);
  registerControlApi(app, emulator);

  app.setNotFoundHandler((request, reply) => {
    if (!request.url.startsWith("/v1/")) return reply.status(404).type("text/plain").send("Not found");
    return sendApiError(
      reply,
      new StripeApiError(
        404,
        "invalid_request_error",
        `Unrecognized request URL (${request.method}: ${request.url.split("?")[0]}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      ),
    );
  });

  app.setErrorHandler((error, request, reply) => {
    if (request.url.startsWith("/v1/")) {
      const status =
        typeof error === "object" && error !== null && "statusCode" in error ? error.statusCode : 500;
      const message = error instanceof Error ? error.message : String(error);
      return sendApiError(
        reply,
        status === 400 || status === 415 ? new StripeApiError(400, "invalid_request_error", message) : error,
      );
    }
    emulator.logger.error(`stripe-emulator: ${String(error)}`);
    return reply.status(500).type("text/plain").send("Internal error in the local Stripe emulator");
  });

  return app;
}
