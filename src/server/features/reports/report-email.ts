import type { Locale } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import {
  type CheckedReport,
  COUNTER_NOTICE_STATEMENTS,
  type CounterNotice,
  REPORT_REASON_LABELS,
  type ReportReason,
} from "../../../contracts/reports";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import type { ReportSubject } from "./report-targets";

/** A date in an email about a report: "15 March 2024", "15. März 2024" (UTC). */
const longDate = (locale: Locale, date: Date) =>
  translator(locale).date(date, { dateStyle: "long", timeZone: "UTC" });

/**
 * The reporter's confirmation, in the language of the page they reported from: what was received, what
 * happens next, and (copyright) that the notice goes to the creator with their name and email.
 */
export function reportReceivedEmail(input: {
  subject: ReportSubject;
  report: CheckedReport;
  reportId: string;
  locale: Locale;
}): OutgoingEmail {
  const { subject, report, reportId, locale } = input;
  const { t } = translator(locale);
  const reason = t(`report.reason.${report.reason}`);
  const received =
    subject.kind === "product"
      ? t("email.report.receivedProduct", { title: subject.name ?? "", reason })
      : t("email.report.receivedStore", { name: subject.name ?? t("store.fallbackName"), reason });
  return {
    to: report.email,
    subject: t("email.report.subject"),
    ...renderEmail({
      locale,
      preheader: t("email.report.preheader"),
      heading: t("email.report.heading"),
      paragraphs: [
        received,
        t("email.report.next"),
        ...(report.reason === "copyright" ? [t("email.report.copyright")] : []),
        t("email.report.reference", { id: reportId }),
      ],
      note: t("email.report.note"),
    }),
  };
}

/**
 * The seller's email about a new report (English, as every seller's email): what was reported, why,
 * when, and the link to read and answer it; for copyright, that a notice was filed and a counter-notice
 * is their answer if it is a mistake. Never who reported it, nor the details (which a reporter may have
 * signed): the dashboard shows what the seller may see.
 */
export function sellerReportEmail(input: {
  appUrl: string;
  to: string;
  reportId: string;
  kind: "product" | "store";
  /** The product's title (a product's report). */
  productTitle: string | null;
  reason: ReportReason;
  receivedAt: Date;
}): OutgoingEmail {
  const { kind, productTitle, reason } = input;
  const what = kind === "product" ? `your product “${productTitle ?? ""}”` : "your store";
  const received = `A visitor reported ${what} on ${longDate("en", input.receivedAt)}. Reason: ${REPORT_REASON_LABELS[reason]}.`;
  const paragraphs =
    reason === "copyright"
      ? [
          received,
          "This is a copyright notice (DMCA): the claimant says it uses their copyrighted work without permission. The report's page shows their notice, with their name and email.",
          "If you believe it was reported by mistake or misidentification, you may answer with a counter-notice on that page; we forward it to the claimant.",
        ]
      : [
          received,
          "Read the report and give your side on its page. Who reported it stays private.",
          "A Flatfee operator reviews every report before acting, and reads your answer.",
        ];
  return {
    to: input.to,
    subject: kind === "product" ? `New report about “${productTitle ?? ""}”` : "New report about your store",
    ...renderEmail({
      preheader: received,
      heading: kind === "product" ? "Your product was reported" : "Your store was reported",
      paragraphs,
      button: {
        label: "Read and answer the report",
        url: `${input.appUrl}/dashboard/reports/${input.reportId}`,
      },
      note: "We send at most one of these emails an hour: reports that arrive in between are on your Reports page.",
    }),
  };
}

/** What a decided report was about, in the reporter's language: the product or store, the reason, when. */
function decidedAbout(
  locale: Locale,
  report: { productTitle: string | null; storeName: string | null; reason: ReportReason; createdAt: Date },
): string {
  const { t } = translator(locale);
  const reason = t(`report.reason.${report.reason}`);
  const date = longDate(locale, report.createdAt);
  return report.productTitle !== null
    ? t("email.decision.aboutProduct", { title: report.productTitle, reason, date })
    : t("email.decision.aboutStore", { name: report.storeName ?? t("store.fallbackName"), reason, date });
}

/**
 * The reporter's email once their report is decided, in the language they reported in: what was
 * decided and the operator's reason as written, the reference. Nothing of what was done to the seller
 * beyond "we took action" or "we found no violation".
 */
export function reportDecidedEmail(input: {
  to: string;
  locale: Locale;
  reportId: string;
  decision: "actioned" | "dismissed";
  reason: string;
  report: { productTitle: string | null; storeName: string | null; reason: ReportReason; createdAt: Date };
}): OutgoingEmail {
  const { locale, decision } = input;
  const { t } = translator(locale);
  return {
    to: input.to,
    subject: t("email.decision.subject"),
    ...renderEmail({
      locale,
      preheader: t(`email.decision.${decision}.heading`),
      heading: t(`email.decision.${decision}.heading`),
      paragraphs: [
        decidedAbout(locale, input.report),
        t(`email.decision.${decision}`),
        t("email.decision.reason", { reason: input.reason }),
        t("email.report.reference", { id: input.reportId }),
      ],
      note: t("email.decision.note"),
    }),
  };
}

/**
 * The seller's counter-notice, sent on to the copyright claimant as 17 U.S.C. § 512(g)(2)(B) asks: our
 * words in the claimant's language, the seller's (name, address, phone, statement, the sworn statements
 * they ticked, signature) as written; then when what was taken down may be restored unless the claimant
 * tells us of a court action, and how to tell us.
 */
export function counterNoticeEmail(input: {
  to: string;
  locale: Locale;
  reportId: string;
  report: { productTitle: string | null; storeName: string | null; reason: ReportReason; createdAt: Date };
  message: string;
  counterNotice: CounterNotice;
  restoreAfter: Date;
}): OutgoingEmail {
  const { locale, counterNotice } = input;
  const { t } = translator(locale);
  const intro =
    input.report.productTitle !== null
      ? t("email.counterNotice.introProduct", {
          title: input.report.productTitle ?? "",
          date: longDate(locale, input.report.createdAt),
        })
      : t("email.counterNotice.introStore", {
          name: input.report.storeName ?? t("store.fallbackName"),
          date: longDate(locale, input.report.createdAt),
        });
  return {
    to: input.to,
    subject: t("email.counterNotice.subject"),
    ...renderEmail({
      locale,
      preheader: t("email.counterNotice.preheader"),
      heading: t("email.counterNotice.heading"),
      paragraphs: [
        intro,
        t("email.counterNotice.name", { value: counterNotice.fullName }),
        t("email.counterNotice.address", { value: counterNotice.address }),
        t("email.counterNotice.phone", { value: counterNotice.phone }),
        t("email.counterNotice.statement", { value: input.message }),
        t("email.counterNotice.mistake", { value: COUNTER_NOTICE_STATEMENTS.mistake }),
        t("email.counterNotice.consent", { value: COUNTER_NOTICE_STATEMENTS.jurisdiction }),
        t("email.counterNotice.signature", { value: counterNotice.signature }),
        t("email.counterNotice.restore", { date: longDate(locale, input.restoreAfter) }),
        t("email.counterNotice.reply"),
        t("email.report.reference", { id: input.reportId }),
      ],
      note: t("email.counterNotice.note"),
    }),
  };
}
