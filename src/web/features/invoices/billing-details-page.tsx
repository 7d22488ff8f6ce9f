import { Ban, FileText } from "lucide-react";
import type { MessageKey } from "../../../contracts/i18n/translator";
import { type Creator, CreatorPageShell } from "../../components/layout/creator-page-shell";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import { useI18n, useServerText } from "../../lib/i18n";

/** The billing-details form's fields, as the buyer typed them (or as the invoice has them). */
export interface BillingFields {
  name: string;
  businessName: string;
  line1: string;
  line2: string;
  postalCode: string;
  city: string;
  country: string;
  taxId: string;
}

export type BillingDetailsState =
  | {
      kind: "form";
      numberText: string;
      version: number;
      productTitle: string;
      /** The day corrections close (written for the page's language). */
      openUntil: Date;
      pdfPath: string;
      action: string;
      fields: BillingFields;
      /** A field's problem, by field name; `form` for the whole form. */
      problems?: Partial<Record<keyof BillingFields | "form", string>>;
      saved?: string;
    }
  | { kind: "closed"; numberText: string; message: string; pdfPath: string }
  | { kind: "invalid"; message: string };

const FIELDS: { name: keyof BillingFields; label: MessageKey; autoComplete: string; wide?: boolean }[] = [
  { name: "name", label: "billing.field.name", autoComplete: "name", wide: true },
  { name: "businessName", label: "billing.field.businessName", autoComplete: "organization", wide: true },
  { name: "line1", label: "billing.field.line1", autoComplete: "address-line1", wide: true },
  { name: "line2", label: "billing.field.line2", autoComplete: "address-line2", wide: true },
  { name: "postalCode", label: "billing.field.postalCode", autoComplete: "postal-code" },
  { name: "city", label: "billing.field.city", autoComplete: "address-level2" },
  { name: "country", label: "billing.field.country", autoComplete: "country" },
  { name: "taxId", label: "billing.field.taxId", autoComplete: "off" },
];

/** "27 November 2026": the invoice's own way of writing a day (invoice-pdf.ts) in English, else the page's. */
const LONG_DAY: Intl.DateTimeFormatOptions = {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
};
const ENGLISH_DAY = new Intl.DateTimeFormat("en-GB", LONG_DAY);

/**
 * /invoice/{token}/billing: the buyer corrects the name, address and VAT ID on their invoice, for 30 days
 * after the purchase. A plain form, rendered on the server, no script; saving makes the invoice's next
 * version with the same number.
 */
export function BillingDetailsPage({
  state,
  creator,
}: {
  state: BillingDetailsState;
  creator: Creator | null;
}) {
  const { t } = useI18n();
  const serverText = useServerText();
  return (
    <CreatorPageShell creator={creator} languageSwitcher>
      <section className="mx-auto max-w-xl px-4 py-12 sm:py-16">
        <span className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          {state.kind === "invalid" ? (
            <Ban className="size-6" aria-hidden="true" />
          ) : (
            <FileText className="size-6" aria-hidden="true" />
          )}
        </span>
        {state.kind === "invalid" && (
          <>
            <h1 className="mt-5 text-2xl font-bold tracking-tight text-ink">{t("link.notWorking")}</h1>
            <p className="mt-2 text-base text-muted">{serverText(state.message)}</p>
          </>
        )}
        {state.kind === "closed" && (
          <>
            <h1 className="mt-5 text-2xl font-bold tracking-tight wrap-anywhere text-ink">
              {t("billing.invoice", { number: state.numberText })}
            </h1>
            <p role="status" className="mt-3 rounded-lg bg-slate-100 px-3 py-2 text-sm text-ink">
              {serverText(state.message)}
            </p>
            <Button asChild variant="secondary" className="mt-6">
              <a href={state.pdfPath}>{t("billing.downloadPdf")}</a>
            </Button>
          </>
        )}
        {state.kind === "form" && <BillingForm state={state} />}
      </section>
    </CreatorPageShell>
  );
}

function BillingForm({ state }: { state: Extract<BillingDetailsState, { kind: "form" }> }) {
  const { t, date, locale } = useI18n();
  const serverText = useServerText();
  const problems = state.problems ?? {};
  return (
    <>
      <h1 className="mt-5 text-2xl font-bold tracking-tight wrap-anywhere text-ink">
        {t("billing.heading", { number: state.numberText })}
      </h1>
      <p className="mt-2 text-sm wrap-anywhere text-muted">
        {t("billing.intro", {
          product: state.productTitle,
          corrected: state.version > 1 ? "yes" : "no",
          version: state.version,
          date: locale === "en" ? ENGLISH_DAY.format(state.openUntil) : date(state.openUntil, LONG_DAY),
        })}
      </p>
      {state.saved && (
        <p role="status" className="mt-4 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {serverText(state.saved)}
        </p>
      )}
      {problems.form && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {serverText(problems.form)}
        </p>
      )}
      <form method="post" action={state.action} noValidate className="mt-6 grid gap-4 sm:grid-cols-2">
        {FIELDS.map((field) => {
          const problem = problems[field.name];
          const id = `billing-${field.name}`;
          return (
            <div key={field.name} className={`space-y-1.5 ${field.wide ? "sm:col-span-2" : ""}`}>
              <label htmlFor={id} className="text-sm font-medium text-ink">
                {t(field.label)}
              </label>
              <Input
                id={id}
                name={field.name}
                autoComplete={field.autoComplete}
                defaultValue={state.fields[field.name]}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-problem` : undefined}
              />
              {problem && (
                <p id={`${id}-problem`} role="alert" className="text-sm text-red-600">
                  {serverText(problem)}
                </p>
              )}
            </div>
          );
        })}
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <Button type="submit">{t("billing.save")}</Button>
          <a href={state.pdfPath} className="text-sm font-medium text-brand-700 underline">
            {t("billing.downloadPdf")}
          </a>
        </div>
      </form>
    </>
  );
}
