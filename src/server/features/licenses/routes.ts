import type { FastifyError, FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { z } from "zod";
import { type LicenseRefusal, licenseChangeSchema, saleLicenseSchema } from "../../../contracts/licenses";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { requesterOf } from "../../http/requester";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { setLicenseDisabled } from "./set-license-disabled";
import { verifyLicense } from "./verify-license";

export interface LicenseRouteDeps {
  db: Database;
  auth: Auth;
  events: EventBus;
  now: () => Date;
  /** The proxy's country header (BUYER_COUNTRY_HEADER): each verification's log keeps the country it says. */
  buyerCountryHeader?: string;
}

export const LICENSE_VERIFY_PATH = "/api/v1/licenses/verify";
/** A form body is two short fields; nothing legitimate comes close. */
const FORM_BODY_LIMIT = 16 * 1024;
/** Browsers may keep the preflight's answer this long (seconds). */
const PREFLIGHT_MAX_AGE = 86_400;

const orderParams = z.object({ orderId: z.string().min(1).max(64) });

/**
 * The seller's switch for a sale's key (cookie session, same-site only like every dashboard call), and
 * the public verification for the seller's software (docs/licenses.md).
 */
export function registerLicenseRoutes(app: FastifyInstance, deps: LicenseRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.patch(
    "/api/licenses/:orderId",
    { schema: { params: orderParams, body: licenseChangeSchema, response: { 200: saleLicenseSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      const license = await setLicenseDisabled(
        deps,
        seller.id,
        request.params.orderId,
        request.body.disabled,
        deps.now(),
      );
      return license;
    },
  );

  app.register(async (scope) => registerVerifyRoute(scope, deps));
}

/**
 * `POST /api/v1/licenses/verify` in a scope of its own: it is called by desktop software (no Origin) and
 * from sellers' websites (a cross-site browser POST), so it opts out of the cross-site guard
 * (`allowCrossSite`, request-guards.ts), takes form bodies as well as JSON, and answers CORS for any
 * origin, without credentials: it reads no cookie and acts for nobody, so there is no session to ride.
 * Every answer, refusals included, is `{ success, ... }` with the CORS header, so a page can read it.
 */
function registerVerifyRoute(scope: FastifyInstance, deps: LicenseRouteDeps): void {
  scope.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  scope.addHook("onRequest", async (_request, reply) => {
    reply.header("access-control-allow-origin", "*");
    // Helmet's same-origin CORP would stop a no-cors read; this answer is meant for any site.
    reply.header("cross-origin-resource-policy", "cross-origin");
  });
  scope.setErrorHandler((error: FastifyError | AppError, _request, reply) => {
    const refusal = refusalBody(error);
    // Anything else (a 5xx, the database away) goes to the app's one handler, which logs it.
    if (!refusal) throw error;
    return reply.status(refusal.status).send(refusal.body);
  });

  const config = { allowCrossSite: true };
  scope.options(LICENSE_VERIFY_PATH, { config }, async (_request, reply) =>
    reply
      .status(204)
      .header("access-control-allow-methods", "POST, OPTIONS")
      .header("access-control-allow-headers", "content-type")
      .header("access-control-max-age", String(PREFLIGHT_MAX_AGE))
      .send(),
  );
  scope.post(LICENSE_VERIFY_PATH, { config }, async (request) =>
    verifyLicense(deps, request.body, request.ip, requesterOf(request, deps.buyerCountryHeader)),
  );
}

/** A 4xx as the verify endpoint answers it: `{ success: false, code, message }`. */
function refusalBody(error: FastifyError | AppError): { status: number; body: LicenseRefusal } | undefined {
  if (error instanceof AppError) {
    if (error.status >= 500) return undefined;
    return { status: error.status, body: { success: false, code: error.code, message: error.userMessage } };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const message = error.validation[0]?.message ?? "Invalid request";
    return { status: 400, body: { success: false, code: "validation_error", message } };
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) return undefined;
  return {
    status,
    body: { success: false, code: error.code?.toLowerCase() ?? "bad_request", message: error.message },
  };
}
