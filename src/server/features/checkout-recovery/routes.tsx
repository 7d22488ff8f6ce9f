import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { recoverySettingsSchema } from "../../../contracts/checkout-recovery";
import { translator } from "../../../contracts/i18n/translator";
import { creatorOf, RecoveryPage, type RecoveryState } from "../../../web/server-rendered";
import type { Database } from "../../db/database";
import { buyerLocale } from "../../http/buyer-locale";
import { AppError } from "../../http/errors";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { findPublicSeller } from "../billing";
import { buyAgain, type CheckoutRouteDeps } from "../checkout";
import { type PublicPageAssets, renderDocument, sendUncached } from "../public-pages";
import { recoveryPath } from "./recovery-link";
import { getRecoverySettings, updateRecoverySettings } from "./recovery-settings";
import { type RecoveryLinkState, readRecoveryLink } from "./resume-checkout";

export interface RecoveryRouteDeps {
  db: Database;
  auth: Auth;
  now: () => Date;
  recoveryKey: string;
  assets: PublicPageAssets;
  checkout: CheckoutRouteDeps;
}

type TokenRoute = { Params: { token: string } };
/** The page's form posts nothing but its button; nothing bigger is read. */
const FORM_BODY_LIMIT = 4096;

/**
 * The seller's switch (`GET`/`PUT /api/checkout-recovery/settings`) and the buyer's recovery link,
 * `/recover/{token}`: GET shows the product and its price (mail scanners open links: nothing is held),
 * POST makes a fresh checkout of the same product, price and currency and redirects to Stripe.
 */
export function registerRecoveryRoutes(app: FastifyInstance, deps: RecoveryRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    "/api/checkout-recovery/settings",
    { schema: { response: { 200: recoverySettingsSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return getRecoverySettings(deps.db, seller.id);
    },
  );
  api.put(
    "/api/checkout-recovery/settings",
    { schema: { body: recoverySettingsSchema, response: { 200: recoverySettingsSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return updateRecoverySettings(deps.db, seller.id, request.body);
    },
  );

  app.get<TokenRoute>("/recover/:token", async (request, reply) => {
    const state = await readRecoveryLink(deps, request.params.token, deps.now());
    return sendRecoveryPage(deps, reply, request.params.token, state);
  });

  app.register(async (forms) => {
    for (const type of ["application/x-www-form-urlencoded", "multipart/form-data"]) {
      // The token in the address is all that counts.
      forms.addContentTypeParser(
        type,
        { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
        (_request, _body, done) => done(null, {}),
      );
    }
    forms.post<TokenRoute>("/recover/:token", async (request, reply) => {
      const state = await readRecoveryLink(deps, request.params.token, deps.now());
      if (state.kind !== "ready") return sendRecoveryPage(deps, reply, request.params.token, state);
      try {
        const url = await buyAgain(deps.checkout, request, reply, state.left);
        return reply.redirect(url, 303);
      } catch (error) {
        // Sold out meanwhile, too many checkouts, the seller's Stripe refusing: said on the page.
        if (!(error instanceof AppError)) throw error;
        return sendRecoveryPage(deps, reply, request.params.token, state, error);
      }
    });
  });
}

async function sendRecoveryPage(
  deps: RecoveryRouteDeps,
  reply: FastifyReply,
  token: string,
  state: RecoveryLinkState,
  error?: AppError,
) {
  const seller =
    state.kind === "invalid" ? undefined : await findPublicSeller(deps.db, state.sellerId, deps.now());
  const creator = seller ? creatorOf(seller, seller.pagesPublic) : null;
  const page: RecoveryState =
    state.kind === "ready"
      ? {
          kind: "ready",
          productTitle: state.productTitle,
          amountCents: state.amountCents,
          currency: state.currency,
          action: recoveryPath(token),
          ...(error ? { error: error.userMessage } : {}),
        }
      : { kind: state.kind, storeHref: creator?.storeHref ?? null };
  const locale = buyerLocale(reply.request, reply);
  const { t } = translator(locale);
  const title =
    state.kind === "ready"
      ? t("recovery.titleReady")
      : state.kind === "unavailable"
        ? t("recovery.unavailable")
        : t("link.notWorking");
  const html = renderDocument({
    assets: deps.assets,
    path: recoveryPath(token),
    headTags: `<title>${title} · Flatfee</title>\n    <meta name="robots" content="noindex" />`,
    page: <RecoveryPage state={page} creator={creator} />,
    locale,
  });
  // The address carries the buyer's token: never sent on to another site.
  reply.header("referrer-policy", "no-referrer");
  const status = error ? error.status : state.kind === "ready" ? 200 : state.kind === "invalid" ? 400 : 410;
  return sendUncached(reply, status, html);
}
