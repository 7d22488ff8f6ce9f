import type { FastifyInstance, FastifyReply } from "fastify";
import { translator } from "../../../contracts/i18n/translator";
import { billingDetailsSchema, INVOICE_MESSAGES, type InvoiceKind } from "../../../contracts/invoices";
import {
  BillingDetailsPage,
  type BillingDetailsState,
  type BillingFields,
  creatorOf,
} from "../../../web/server-rendered";
import type { VatNumberChecker } from "../../adapters/vat-check/vat-checker";
import type { Database } from "../../db/database";
import { buyerLocale } from "../../http/buyer-locale";
import { AppError } from "../../http/errors";
import { visitorNetworkHash } from "../../http/visitor";
import { findPublicSeller } from "../billing";
import { billingDetailsPath, invoicePdfPath, readInvoiceToken } from "../invoice-links";
import { type PublicPageAssets, renderDocument, sendUncached } from "../public-pages";
import { correctBillingDetails, correctionBlocker, correctionEndsAt } from "./correct-billing-details";
import { documentPdf, latestDocumentOfOrder } from "./documents";
import type { InvoiceRow } from "./invoice-pdf";
import { sendPdf } from "./send-pdf";

export interface BuyerInvoiceDeps {
  db: Database;
  linkKey: string;
  assets: PublicPageAssets;
  now: () => Date;
  /** Checks a corrected VAT ID, as at checkout. */
  vatChecker: VatNumberChecker;
  /** The key the network's hash is made with (checkout's), so VAT checks share one limit per network. */
  visitorKey: string;
  appUrl: string;
}

type TokenRoute = { Params: { token: string } };
type FormRoute = TokenRoute & { Body: Record<string, string> | undefined };
/** The form posts eight short fields; nothing bigger is read. */
const FORM_BODY_LIMIT = 8192;

/**
 * The buyer's invoice links, reached from the receipt, the success page and the library: the signed
 * token names the order (invoice-links room), so a tampered or made-up link is refused. GET
 * /invoice/{token} is the newest version of the invoice, /credit-note the refund's credit note,
 * /billing the page where the buyer corrects their billing details for 30 days.
 */
export function registerBuyerInvoiceRoutes(app: FastifyInstance, deps: BuyerInvoiceDeps): void {
  const orderOf = (token: string) => readInvoiceToken(token, deps.linkKey, deps.now());

  const sendDocument = async (reply: FastifyReply, token: string, kind: InvoiceKind) => {
    const orderId = orderOf(token);
    if (!orderId) throw new AppError("link_invalid", 404, INVOICE_MESSAGES.linkInvalid);
    const row = await latestDocumentOfOrder(deps.db, orderId, kind);
    if (!row) throw new AppError("not_found", 404, INVOICE_MESSAGES.notFound);
    reply.header("referrer-policy", "no-referrer");
    return sendPdf(reply, row, await documentPdf(deps.db, row), "private, no-store");
  };
  app.get<TokenRoute>("/invoice/:token", (request, reply) =>
    sendDocument(reply, request.params.token, "invoice"),
  );
  app.get<TokenRoute>("/invoice/:token/credit-note", (request, reply) =>
    sendDocument(reply, request.params.token, "credit_note"),
  );

  app.get<TokenRoute>("/invoice/:token/billing", async (request, reply) => {
    const { status, state, sellerId } = await billingPageState(deps, request.params.token);
    return sendBillingPage(deps, reply, request.params.token, status, state, sellerId);
  });

  app.register(async (forms) => {
    forms.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    forms.post<FormRoute>("/invoice/:token/billing", async (request, reply) => {
      const { token } = request.params;
      const current = await billingPageState(deps, token);
      if (current.state.kind !== "form") {
        return sendBillingPage(deps, reply, token, current.status, current.state, current.sellerId);
      }
      const body = request.body ?? {};
      const typed = fieldsOf(body);
      const parsed = billingDetailsSchema.safeParse(typed);
      if (!parsed.success) {
        const problems: Partial<Record<keyof BillingFields, string>> = {};
        for (const issue of parsed.error.issues) {
          const field = issue.path[0] as keyof BillingFields;
          problems[field] ??= issue.message;
        }
        const state = { ...current.state, fields: typed, problems };
        return sendBillingPage(deps, reply, token, 400, state, current.sellerId);
      }
      const network = visitorNetworkHash(deps.visitorKey, request.ip);
      try {
        await correctBillingDetails(deps, orderOf(token)!, parsed.data, network, deps.now());
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const state = { ...current.state, fields: typed, problems: problemsOf(error) };
        return sendBillingPage(deps, reply, token, error.status, state, current.sellerId);
      }
      const saved = await billingPageState(deps, token);
      const state =
        saved.state.kind === "form" ? { ...saved.state, saved: INVOICE_MESSAGES.corrected } : saved.state;
      return sendBillingPage(deps, reply, token, 200, state, saved.sellerId);
    });
  });
}

const FIELD_NAMES: (keyof BillingFields)[] = [
  "name",
  "businessName",
  "line1",
  "line2",
  "postalCode",
  "city",
  "country",
  "taxId",
];

/** A refusal shown at its field (a VAT ID VIES does not know), or above the form. */
function problemsOf(error: AppError): Partial<Record<keyof BillingFields | "form", string>> {
  const field = error.details?.field;
  const known = FIELD_NAMES.find((name) => name === field);
  return known ? { [known]: error.userMessage } : { form: error.userMessage };
}

/** What the buyer typed, each field a string of bounded length (the schema says what is wrong). */
function fieldsOf(body: Record<string, unknown>): BillingFields {
  const fields = {} as BillingFields;
  for (const name of FIELD_NAMES) {
    const value = body[name];
    fields[name] = typeof value === "string" ? value.slice(0, 1000) : "";
  }
  return fields;
}

/** The form's fields as the invoice's newest version has them. */
function fieldsOfInvoice(row: InvoiceRow): BillingFields {
  const { buyer } = row;
  const address = buyer.postalAddress;
  return {
    name: buyer.name ?? "",
    businessName: buyer.businessName ?? "",
    line1: address?.line1 ?? "",
    line2: address?.line2 ?? "",
    postalCode: address?.postal_code ?? "",
    city: address?.city ?? "",
    country: address?.country ?? buyer.country ?? "",
    taxId: buyer.taxId ?? "",
  };
}

/** The page's state for a token: the form while corrections are open, why not otherwise. */
async function billingPageState(
  deps: BuyerInvoiceDeps,
  token: string,
): Promise<{ status: number; state: BillingDetailsState; sellerId?: string }> {
  const orderId = readInvoiceToken(token, deps.linkKey, deps.now());
  if (!orderId) return { status: 404, state: { kind: "invalid", message: INVOICE_MESSAGES.linkInvalid } };
  const row = await latestDocumentOfOrder(deps.db, orderId, "invoice");
  if (!row) return { status: 404, state: { kind: "invalid", message: INVOICE_MESSAGES.notFound } };
  const sellerId = row.seller_id;
  const pdfPath = invoicePdfPath(token);
  const blocker = await correctionBlocker(deps.db, row, deps.now());
  if (blocker) {
    return {
      status: 200,
      state: { kind: "closed", numberText: row.number_text, message: blocker, pdfPath },
      sellerId,
    };
  }
  return {
    status: 200,
    sellerId,
    state: {
      kind: "form",
      numberText: row.number_text,
      version: row.version,
      productTitle: row.lines[0]?.description ?? "",
      openUntil: correctionEndsAt(row),
      pdfPath,
      action: billingDetailsPath(token),
      fields: fieldsOfInvoice(row),
    },
  };
}

async function sendBillingPage(
  deps: BuyerInvoiceDeps,
  reply: FastifyReply,
  token: string,
  status: number,
  state: BillingDetailsState,
  sellerId: string | undefined,
) {
  const seller = sellerId ? await findPublicSeller(deps.db, sellerId, deps.now()) : undefined;
  const locale = buyerLocale(reply.request, reply);
  const html = renderDocument({
    assets: deps.assets,
    path: billingDetailsPath(token),
    headTags: `<title>${translator(locale).t("billing.title")} · Flatfee</title>\n    <meta name="robots" content="noindex" />`,
    page: (
      <BillingDetailsPage state={state} creator={seller ? creatorOf(seller, seller.pagesPublic) : null} />
    ),
    locale,
  });
  // The address carries the buyer's token: never sent on to another site.
  reply.header("referrer-policy", "no-referrer");
  return sendUncached(reply, status, html);
}
