import type { FastifyInstance, FastifyReply } from "fastify";
import { AUDIENCE_MESSAGES } from "../../../contracts/audience";
import { translator } from "../../../contracts/i18n/translator";
import { creatorOf, UnsubscribePage, type UnsubscribeState } from "../../../web/server-rendered";
import type { Database } from "../../db/database";
import { buyerLocale } from "../../http/buyer-locale";
import { findPublicSeller } from "../billing";
import type { PublicPageAssets } from "../public-pages";
import { renderDocument, sendUncached } from "../public-pages";
import { isUnsubscribed, readUnsubscribeToken, unsubscribe, unsubscribePath } from "./unsubscribe";

export interface UnsubscribePageDeps {
  db: Database;
  assets: PublicPageAssets;
  unsubscribeKey: string;
  now: () => Date;
}

type TokenRoute = { Params: { token: string } };
/** A one-click unsubscribe posts one short field; nothing bigger is read. */
const FORM_BODY_LIMIT = 4096;

/**
 * /unsubscribe/{token}, the link in every email a seller sends their buyers. GET asks (mail scanners
 * open links, and must not unsubscribe anyone); POST unsubscribes: the page's form, and mail apps'
 * one-click unsubscribe (RFC 8058: `List-Unsubscribe=One-Click` posted to the same address, without
 * Origin or cookies, which the cross-site guard lets through). No session needed: the signed token
 * names the seller and the email, and a tampered one is refused.
 */
export function registerUnsubscribePages(app: FastifyInstance, deps: UnsubscribePageDeps): void {
  app.get<TokenRoute>("/unsubscribe/:token", async (request, reply) => {
    const who = readUnsubscribeToken(request.params.token, deps.unsubscribeKey);
    const seller = who && (await findPublicSeller(deps.db, who.sellerId, deps.now()));
    if (!who || !seller) return sendPage(deps, reply, request.params.token, 400, invalid, null);
    const sellerName = creatorOf(seller).name;
    const state: UnsubscribeState = (await isUnsubscribed(deps.db, who))
      ? { kind: "done", email: who.email, sellerName }
      : { kind: "confirm", email: who.email, sellerName, action: unsubscribePath(request.params.token) };
    return sendPage(deps, reply, request.params.token, 200, state, creatorOf(seller, seller.pagesPublic));
  });

  app.register(async (forms) => {
    for (const type of ["application/x-www-form-urlencoded", "multipart/form-data"]) {
      // The token in the address is all that counts; the body (the button, or List-Unsubscribe=One-Click) is not read.
      forms.addContentTypeParser(
        type,
        { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
        (_request, _body, done) => done(null, {}),
      );
    }
    forms.post<TokenRoute>("/unsubscribe/:token", async (request, reply) => {
      const who = readUnsubscribeToken(request.params.token, deps.unsubscribeKey);
      const seller = who && (await findPublicSeller(deps.db, who.sellerId, deps.now()));
      if (!who || !seller) return sendPage(deps, reply, request.params.token, 400, invalid, null);
      await unsubscribe(deps.db, who);
      const state: UnsubscribeState = { kind: "done", email: who.email, sellerName: creatorOf(seller).name };
      return sendPage(deps, reply, request.params.token, 200, state, creatorOf(seller, seller.pagesPublic));
    });
  });
}

const invalid: UnsubscribeState = { kind: "invalid", message: AUDIENCE_MESSAGES.unsubscribeInvalid };

function sendPage(
  deps: UnsubscribePageDeps,
  reply: FastifyReply,
  token: string,
  status: number,
  state: UnsubscribeState,
  creator: ReturnType<typeof creatorOf> | null,
) {
  const locale = buyerLocale(reply.request, reply);
  const title = translator(locale).t(
    state.kind === "done"
      ? "unsubscribe.titleDone"
      : state.kind === "invalid"
        ? "unsubscribe.titleInvalid"
        : "unsubscribe.titleConfirm",
  );
  const html = renderDocument({
    assets: deps.assets,
    path: unsubscribePath(token),
    headTags: `<title>${title} · Flatfee</title>\n    <meta name="robots" content="noindex" />`,
    page: <UnsubscribePage state={state} creator={creator} />,
    locale,
  });
  // The address carries the buyer's token: never sent on to another site.
  reply.header("referrer-policy", "no-referrer");
  return sendUncached(reply, status, html);
}
