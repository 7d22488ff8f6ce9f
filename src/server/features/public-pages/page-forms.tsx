import type { FastifyInstance } from "fastify";
import { translator } from "../../../contracts/i18n/translator";
import { freeClaimSchema } from "../../../contracts/products";
import type { PurchaseAnswer } from "../../../web/server-rendered";
import { FreeClaimSentPage } from "../../../web/server-rendered";
import { buyerLocale } from "../../http/buyer-locale";
import { AppError } from "../../http/errors";
import { webHeaders } from "../../http/session";
import { sourceOfFields } from "../analytics";
import { buyNow, claimFree, subscribe, textField } from "../checkout";
import { allowCodeTry, allowedCodeTry } from "../discounts";
import { getPublicProduct } from "../products";
import { registerBuyerPageForms } from "./buyer-pages";
import { sendProductNotFound } from "./not-found-page";
import { answerWithPage } from "./product-page";
import type { ProductRoute, PublicPageDeps } from "./public-page-deps";
import { renderDocument } from "./render-document";
import { answerResendForm } from "./resend-form";
import { nullWhenNotFound, sendUncached } from "./respond";

/** Forms post a few short fields; nothing bigger is read. */
const FORM_BODY_LIMIT = 4096;

/**
 * The forms of the server-rendered pages (Buy Now, Subscribe, the free claim, resend my link, the buyer
 * pages' forms, Logout): urlencoded bodies, which only this scope parses; the cross-site check still applies.
 */
export function registerPageForms(app: FastifyInstance, deps: PublicPageDeps): void {
  app.register(async (forms) => {
    forms.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    forms.post<ProductRoute>("/product/:productId/buy", async (request, reply) => {
      const { productId } = request.params;
      try {
        return reply.redirect(await buyNow(deps.checkout, request, reply, productId), 303);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        // The page comes back with what the buyer typed: the code (or why it no longer applies), the amount.
        const value = textField(request.body, "amount", 32) ?? "";
        const field = error.details?.field;
        const business = {
          businessName: textField(request.body, "businessName", 200) ?? "",
          vatNumber: textField(request.body, "vatNumber", 40) ?? "",
        };
        const answer: PurchaseAnswer =
          field === "amount"
            ? { amount: { value, problem: error.userMessage }, business }
            : field === "businessName" || field === "vatNumber"
              ? {
                  amount: { value },
                  business: { ...business, problem: { field, message: error.userMessage } },
                }
              : { buyRefused: error.userMessage, amount: { value }, business };
        // Priced only with a code this request was allowed to try: a refusal by a rate limit says nothing.
        return answerWithPage(
          deps,
          reply,
          productId,
          error.status,
          answer,
          allowedCodeTry(request),
          sourceOfFields(request.body),
        );
      }
    });

    // Subscribe to a membership's tier: Checkout in subscription mode, or the page with why not.
    forms.post<ProductRoute>("/product/:productId/subscribe", async (request, reply) => {
      const { productId } = request.params;
      const interval = textField(request.body, "interval", 8) === "year" ? "year" : "month";
      const tierId = textField(request.body, "tierId", 64) ?? "";
      try {
        const url = await subscribe(deps.checkout, request, reply, productId, { tierId, interval });
        return reply.redirect(url, 303);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return answerWithPage(deps, reply, productId, error.status, { buyRefused: error.userMessage });
      }
    });

    // "Email me the download": the order is made without Stripe and the link goes to the email only.
    forms.post<ProductRoute>("/product/:productId/free", async (request, reply) => {
      const { productId } = request.params;
      const code = textField(request.body, "code");
      const email = textField(request.body, "email", 254) ?? "";
      const parsed = freeClaimSchema.safeParse({ productId, email, ...(code ? { code } : {}) });
      // As Buy Now's: the page is priced only with a code this request was allowed to try. Without it the
      // page may offer no email form (the code made the price $0), so the problem is said above Buy Now.
      const refuse = (status: number, problem: string) => {
        const counted = allowedCodeTry(request);
        const answer: PurchaseAnswer =
          code && !counted ? { buyRefused: problem } : { free: { email, problem } };
        return answerWithPage(deps, reply, productId, status, answer, counted);
      };
      if (!parsed.success) {
        // The email is wrong, not the code: the page keeps the code's price (and this form) if this
        // network may still try a code, counted as any other try.
        await allowCodeTry(deps.db, request, code, deps.now()).catch(unlessRateLimited);
        return refuse(400, parsed.error.issues[0]?.message ?? "Please enter a valid email");
      }
      try {
        await claimFree(deps.checkout, request, reply, parsed.data);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return refuse(error.status, error.userMessage);
      }
      const product = await getPublicProduct(deps.db, productId, deps.now()).catch(nullWhenNotFound);
      if (!product) return sendProductNotFound(deps, reply);
      const locale = buyerLocale(request, reply);
      const html = renderDocument({
        assets: deps.assets,
        path: `/product/${product.id}/free`,
        headTags: `<title>${translator(locale).t("free.sentTitle")} · Flatfee</title>\n    <meta name="robots" content="noindex" />`,
        page: <FreeClaimSentPage product={product} email={parsed.data.email} />,
        locale,
      });
      return sendUncached(reply, 200, html);
    });

    forms.post<ProductRoute>("/product/:productId/resend-link", async (request, reply) => {
      const { productId } = request.params;
      const { status, answer } = await answerResendForm(deps.resend, request, productId, deps.now());
      return answerWithPage(deps, reply, productId, status, { resend: answer });
    });

    registerBuyerPageForms(forms, deps);

    // The header's Logout on server-rendered pages: Better Auth ends the session and clears its cookies.
    forms.post("/logout", async (request, reply) => {
      const { headers } = await deps.auth.api.signOut({ headers: webHeaders(request), returnHeaders: true });
      const cookies = headers.getSetCookie();
      if (cookies.length > 0) reply.header("set-cookie", cookies);
      return reply.redirect("/", 303);
    });
  });
}

/** A refusal by a rate limit is answered as nothing; any other error is thrown on. */
export function unlessRateLimited(error: unknown): undefined {
  if (error instanceof AppError && error.status === 429) return undefined;
  throw error;
}
