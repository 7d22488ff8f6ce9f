import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { translator } from "../../../contracts/i18n/translator";
import { REPORT_FIELDS, type ReportFormValues } from "../../../contracts/reports";
import {
  creatorOf,
  ReportFormPage,
  type ReportFormState,
  ReportRefusedPage,
  ReportSentPage,
  type ReportTarget,
} from "../../../web/server-rendered";
import { buyerLocale } from "../../http/buyer-locale";
import { type PublicPageAssets, renderDocument, sendNotFoundPage, sendUncached } from "../public-pages";
import { findReportSubject, type ReportSubject } from "./report-targets";
import { allowReportPost, type SubmitReportDeps, submitReport } from "./submit-report";

export interface ReportPageDeps extends SubmitReportDeps {
  assets: PublicPageAssets;
  now: () => Date;
}

/** A report form posts a few fields, the longest the details (5,000 characters) and the DMCA notice's. */
const REPORT_BODY_LIMIT = 32 * 1024;
/** Longer than any field may be: what is kept to show in the form again is cut there. */
const FIELD_READ_CHARS = 6000;

type Kind = "product" | "store";
const ROUTES: Array<{ kind: Kind; path: string; param: string }> = [
  { kind: "product", path: "/product/:productId/report", param: "productId" },
  { kind: "store", path: "/store/:userId/report", param: "userId" },
];

/**
 * The report form of every product and store page (`/product/{id}/report`, `/store/{id}/report`,
 * linked from their footer): a server-rendered page and its plain form post, in the visitor's language,
 * never cached. Posts are urlencoded, which only this scope parses.
 */
export function registerReportPages(app: FastifyInstance, deps: ReportPageDeps): void {
  app.register(async (forms) => {
    forms.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: REPORT_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    for (const route of ROUTES) {
      const idOf = (request: FastifyRequest) => (request.params as Record<string, string>)[route.param] ?? "";

      forms.get(route.path, async (request, reply) => {
        const subject = await findReportSubject(deps.db, { kind: route.kind, id: idOf(request) }, deps.now());
        if (!subject) return sendNotFoundPage(deps, reply, route.kind);
        return sendReportPage(deps, reply, 200, subject, undefined);
      });

      forms.post(route.path, async (request, reply) => {
        const values = formValues(request.body);
        // Before anything of the post is looked at: the subject's existence, the fields.
        const allowed = await allowReportPost(deps.db, { ip: request.ip, email: values.email }, deps.now());
        if (!allowed) return sendRefused(deps, reply, route.kind, `/${route.kind}/${idOf(request)}`);
        const subject = await findReportSubject(deps.db, { kind: route.kind, id: idOf(request) }, deps.now());
        if (!subject) return sendNotFoundPage(deps, reply, route.kind);
        const locale = buyerLocale(request, reply);
        const result = await submitReport(deps, subject, values, locale, deps.now());
        if (result.outcome === "invalid") {
          return sendReportPage(deps, reply, 400, subject, { values, problems: result.problems });
        }
        const html = renderDocument({
          assets: deps.assets,
          path: subject.pagePath,
          headTags: headTags(translator(locale).t("report.sent.title")),
          page: (
            <ReportSentPage
              target={targetOf(deps, subject)}
              email={result.email}
              outcome={result.outcome}
              reference={result.reportId}
            />
          ),
          locale,
        });
        return sendUncached(reply, 200, html);
      });
    }
  });
}

/** The posted fields the form has, as text, each cut to a length no field may reach. */
function formValues(body: unknown): Partial<ReportFormValues> {
  const fields = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const values: Partial<ReportFormValues> = {};
  for (const field of REPORT_FIELDS) {
    const value = fields[field];
    if (typeof value === "string") values[field] = value.slice(0, FIELD_READ_CHARS);
  }
  return values;
}

const headTags = (title: string) =>
  `<title>${title} · Flatfee</title>\n    <meta name="robots" content="noindex" />`;

function targetOf(deps: ReportPageDeps, subject: ReportSubject): ReportTarget {
  return {
    kind: subject.kind,
    name: subject.name,
    url: `${deps.appUrl}${subject.pagePath}`,
    pagePath: subject.pagePath,
    formPath: `${subject.pagePath}/report`,
    creator: creatorOf(subject.seller),
  };
}

function sendReportPage(
  deps: ReportPageDeps,
  reply: FastifyReply,
  status: number,
  subject: ReportSubject,
  state: ReportFormState | undefined,
) {
  const locale = buyerLocale(reply.request, reply);
  const { t } = translator(locale);
  const html = renderDocument({
    assets: deps.assets,
    // The form's own address: the language switcher's links stay on it.
    path: `${subject.pagePath}/report`,
    headTags: headTags(t(subject.kind === "product" ? "report.title.product" : "report.title.store")),
    page: <ReportFormPage target={targetOf(deps, subject)} state={state} />,
    locale,
  });
  return sendUncached(reply, status, html);
}

function sendRefused(deps: ReportPageDeps, reply: FastifyReply, kind: Kind, backHref: string) {
  const locale = buyerLocale(reply.request, reply);
  const html = renderDocument({
    assets: deps.assets,
    path: backHref,
    headTags: headTags(translator(locale).t("report.refused.title")),
    page: <ReportRefusedPage kind={kind} backHref={backHref} />,
    locale,
  });
  return sendUncached(reply, 429, html);
}
