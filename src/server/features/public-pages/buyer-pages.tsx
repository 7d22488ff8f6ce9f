import type { FastifyInstance, FastifyReply } from "fastify";
import type { ReactElement } from "react";
import type { Locale } from "../../../contracts/i18n/locales";
import { type MessageKey, translator } from "../../../contracts/i18n/translator";
import { ORDER_POLL } from "../../../contracts/orders";
import {
  type Creator,
  creatorOf,
  DownloadPage,
  type DownloadState,
  type OrderLookup,
  SuccessPage,
} from "../../../web/server-rendered";
import { buyerLocale } from "../../http/buyer-locale";
import { AppError } from "../../http/errors";
import { escapeAttribute } from "../../http/html";
import { requesterOf } from "../../http/requester";
import { findPublicSeller } from "../billing";
import { describeDownload, startCountedDownload } from "../downloads";
import { lookupSuccessOrder, sellerOfCheckoutSession } from "../orders";
import type { PublicPageDeps } from "./public-page-deps";
import { renderDocument } from "./render-document";
import { answerResendForm } from "./resend-form";
import { sendUncached } from "./respond";

type SuccessRoute = { Querystring: { session_id?: unknown; try?: unknown } };
type DownloadRoute = { Params: { token: string } };
type DownloadFormRoute = DownloadRoute & { Body: { file?: unknown } | undefined };
const MAX_SESSION_ID_LENGTH = 200;

/**
 * The buyer's pages after paying, rendered on the server like the product page: /success (the order of
 * a checkout session) and /download/{token}. They carry a download link, so they are never stored
 * (`no-store`), and never leak their address to another site (`no-referrer`). In the buyer's language.
 */
export function registerBuyerPages(app: FastifyInstance, deps: PublicPageDeps): void {
  app.get<SuccessRoute>("/success", async (request, reply) => {
    const sessionId = firstString(request.query.session_id);
    const tries = triesSoFar(request.query.try);
    const { lookup, sellerId } = await successLookup(deps, sessionId, request.ip, tries);
    // While processing, the page asks again a second later on its own: no script needed.
    const refresh =
      lookup.state === "processing" && sessionId
        ? `<meta http-equiv="refresh" content="${ORDER_POLL.intervalMs / 1000};url=${escapeAttribute(
            `/success?${new URLSearchParams({ session_id: sessionId, try: String(tries + 1) })}`,
          )}" />`
        : "";
    // The language switcher's address: the session, not how many looks were made.
    const path = sessionId ? `/success?${new URLSearchParams({ session_id: sessionId })}` : "/success";
    const html = renderBuyerPage(
      deps,
      buyerLocale(request, reply),
      path,
      lookup.state === "found" && lookup.purchase.status === "refunded"
        ? "success.titleRefunded"
        : "success.titlePaid",
      <SuccessPage lookup={lookup} creator={await creatorFrame(deps, sellerId)} />,
      refresh,
    );
    return sendBuyerPage(reply, lookup.state === "notFound" ? 404 : 200, html);
  });

  app.get<DownloadRoute>("/download/:token", async (request, reply) => {
    const { status, state, sellerId } = await downloadPageState(deps, request.params.token);
    return sendDownloadPage(deps, reply, request.params.token, status, state, sellerId);
  });
}

/** The forms of the buyer's pages; `forms` is the scope that reads urlencoded bodies. */
export function registerBuyerPageForms(forms: FastifyInstance, deps: PublicPageDeps): void {
  // Download (download and success pages): counts one download and sends the browser to the file.
  // Each file's button sends its id as `file`.
  forms.post<DownloadFormRoute>("/download/:token", async (request, reply) => {
    const { token } = request.params;
    try {
      const { url } = await startCountedDownload(
        { ...deps.buyer, now: deps.now },
        token,
        firstString(request.body?.file)?.slice(0, 64) ?? undefined,
        requesterOf(request, deps.checkout.buyerCountryHeader),
      );
      return reply.header("cache-control", "no-store").redirect(url, 303);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const refusal =
        error.code === "download_unavailable" || error.code === "file_required"
          ? error.userMessage
          : undefined;
      const { state, sellerId } = await downloadPageState(deps, token, refusal);
      return sendDownloadPage(deps, reply, token, error.status, state, sellerId);
    }
  });

  // 'Email me a new link' on an expired link's page: to the purchase email only, as on the product page.
  forms.post<DownloadRoute>("/download/:token/resend-link", async (request, reply) => {
    const { token } = request.params;
    const { status, state, productId, sellerId } = await downloadPageState(deps, token);
    if (state.kind !== "expired" || !productId) {
      // The link still works (or never did): the page itself says what to do.
      return reply.redirect(downloadPagePath(token), 303);
    }
    const resend = await answerResendForm(deps.resend, request, productId, deps.now());
    const answered: DownloadState = { ...state, answer: resend.answer };
    const answerStatus = resend.status === 200 ? status : resend.status;
    return sendDownloadPage(deps, reply, token, answerStatus, answered, sellerId);
  });
}

/**
 * product rules, States and transitions: the first look and up to 10 more, one a second, then 'not found'. With the seller the
 * checkout was with, whose frame the page wears even before the order exists.
 */
async function successLookup(
  deps: PublicPageDeps,
  sessionId: string | null,
  ip: string,
  tries: number,
): Promise<{ lookup: OrderLookup; sellerId?: string | undefined }> {
  if (!sessionId || sessionId.length > MAX_SESSION_ID_LENGTH) return { lookup: { state: "notFound" } };
  try {
    const { purchase } = await lookupSuccessOrder({ ...deps.buyer, now: deps.now }, sessionId, ip);
    return { lookup: { state: "found", purchase }, sellerId: purchase.sellerId };
  } catch (error) {
    // Not paid yet (404), or asked too often (429): both are a look that found nothing.
    if (!(error instanceof AppError) || (error.status !== 404 && error.status !== 429)) throw error;
    const lookup: OrderLookup =
      tries < ORDER_POLL.maxAttempts ? { state: "processing" } : { state: "notFound" };
    return { lookup, sellerId: await sellerOfCheckoutSession(deps.db, sessionId) };
  }
}

/**
 * The creator whose frame a buyer's page wears: the seller as the public sees them, their store linked
 * while it is public. Null when the page knows no seller (a forged link, no session).
 */
async function creatorFrame(deps: PublicPageDeps, sellerId: string | undefined): Promise<Creator | null> {
  if (!sellerId) return null;
  const seller = await findPublicSeller(deps.db, sellerId, deps.now());
  return seller ? creatorOf(seller, seller.pagesPublic) : null;
}

/**
 * What a download link's page shows, and its status. `refusal` is why a download was just refused
 * (limit reached, refunded, window over, file removed): the page says so instead of offering it.
 */
async function downloadPageState(
  deps: PublicPageDeps,
  token: string,
  refusal?: string,
): Promise<{ status: number; state: DownloadState; productId?: string; sellerId?: string | undefined }> {
  try {
    const page = await describeDownload(deps.buyer, token, deps.now());
    const { purchase } = page;
    const { sellerId } = purchase;
    if (purchase.unavailableReason || !purchase.downloadPath) {
      const reason = refusal ?? purchase.unavailableReason ?? "";
      return {
        status: 200,
        state: { kind: "unavailable", reason, productTitle: purchase.productTitle },
        sellerId,
      };
    }
    // A refusal about one file (its 3 downloads used, removed meanwhile) leaves the others downloadable.
    const ready: DownloadState = { kind: "ready", page, downloadPath: purchase.downloadPath };
    return { status: 200, state: refusal ? { ...ready, notice: refusal } : ready, sellerId };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === "link_expired") {
      const { productId, email, sellerId } = error.details ?? {};
      const known = typeof productId === "string";
      return {
        status: error.status,
        state: {
          kind: "expired",
          maskedEmail: typeof email === "string" ? email : null,
          resendAction: known ? `${downloadPagePath(token)}/resend-link` : null,
        },
        ...(known ? { productId } : {}),
        ...(typeof sellerId === "string" ? { sellerId } : {}),
      };
    }
    if (error.code === "link_invalid") return { status: error.status, state: { kind: "invalid" } };
    throw error;
  }
}

const downloadPagePath = (token: string) => `/download/${encodeURIComponent(token)}`;

async function sendDownloadPage(
  deps: PublicPageDeps,
  reply: FastifyReply,
  token: string,
  status: number,
  state: DownloadState,
  sellerId: string | undefined,
) {
  const html = renderBuyerPage(
    deps,
    buyerLocale(reply.request, reply),
    downloadPagePath(token),
    "download.yours",
    <DownloadPage state={state} creator={await creatorFrame(deps, sellerId)} />,
  );
  return sendBuyerPage(reply, status, html);
}

function renderBuyerPage(
  deps: PublicPageDeps,
  locale: Locale,
  path: string,
  title: MessageKey,
  page: ReactElement,
  extraHead = "",
): string {
  // Private pages: search engines have nothing to do with them.
  const headTags = `<title>${translator(locale).t(title)} · Flatfee</title>\n    <meta name="robots" content="noindex" />${
    extraHead ? `\n    ${extraHead}` : ""
  }`;
  return renderDocument({ assets: deps.assets, path, headTags, page, locale });
}

/** A buyer's page holds a live download link: kept by no cache, sent to no other site as a referrer. */
function sendBuyerPage(reply: FastifyReply, status: number, html: string) {
  reply.header("referrer-policy", "no-referrer");
  return sendUncached(reply, status, html);
}

function firstString(value: unknown): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" && first !== "" ? first : null;
}

/** How many looks the success page already made (its `try` parameter), within 0…ORDER_POLL.maxAttempts. */
function triesSoFar(value: unknown): number {
  const tries = Number.parseInt(firstString(value) ?? "0", 10);
  return Number.isFinite(tries) ? Math.min(Math.max(tries, 0), ORDER_POLL.maxAttempts) : 0;
}
