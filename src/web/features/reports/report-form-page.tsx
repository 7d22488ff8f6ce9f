import { Flag, MailCheck } from "lucide-react";
import type { ReactNode } from "react";
import {
  REPORT_MESSAGE_KEYS,
  REPORT_REASONS,
  type ReportField,
  type ReportFormValues,
  type ReportMessage,
} from "../../../contracts/reports";
import { type Creator, CreatorPageShell, useStoreName } from "../../components/layout/creator-page-shell";
import { Button } from "../../components/ui/button";
import { fieldClasses } from "../../components/ui/input";
import { useI18n } from "../../lib/i18n";
import { cn } from "../../lib/utils";

/** What is reported: a product or a store, as the form and its confirmation name it. */
export interface ReportTarget {
  kind: "product" | "store";
  /** The product's title, or the store's name (null: our fallback name). */
  name: string | null;
  /** The page's own address, absolute: a copyright notice's "where the material is", prefilled. */
  url: string;
  /** The page the report is about (Back), and where the form posts. */
  pagePath: string;
  formPath: string;
  creator: Creator;
}

/** What the server answered a post with, shown when it renders the form again. */
export interface ReportFormState {
  values: Partial<ReportFormValues>;
  problems: Partial<Record<ReportField, ReportMessage>>;
  /** A refusal of the whole form (too many reports): said above it, nothing else checked. */
  refused?: ReportMessage | undefined;
}

const EMPTY: ReportFormState = { values: {}, problems: {} };

function Problem({ id, message }: { id: string; message: ReportMessage | undefined }) {
  const { t } = useI18n();
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-red-700">
      {t(REPORT_MESSAGE_KEYS[message])}
    </p>
  );
}

/** A labelled text field or text area with its hint and problem, described by both. */
function TextField({
  name,
  label,
  hint,
  state,
  multiline = false,
  type = "text",
  autoComplete,
  defaultValue,
}: {
  name: ReportField;
  label: string;
  hint?: string;
  state: ReportFormState;
  multiline?: boolean;
  type?: string;
  autoComplete?: string;
  defaultValue?: string;
}) {
  const id = `report-${name}`;
  const problem = state.problems[name];
  const describedBy = [hint ? `${id}-hint` : "", problem ? `${id}-problem` : ""].filter(Boolean).join(" ");
  const common = {
    id,
    name,
    defaultValue: state.values[name] ?? defaultValue,
    "aria-invalid": problem ? true : undefined,
    "aria-describedby": describedBy || undefined,
  } as const;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      )}
      {multiline ? (
        <textarea {...common} rows={4} className={cn(fieldClasses, "min-h-24 py-2")} />
      ) : (
        <input {...common} type={type} autoComplete={autoComplete} className={cn(fieldClasses, "h-10")} />
      )}
      <Problem id={`${id}-problem`} message={problem} />
    </div>
  );
}

function Statement({
  name,
  children,
  state,
}: {
  name: ReportField;
  children: ReactNode;
  state: ReportFormState;
}) {
  const id = `report-${name}`;
  const problem = state.problems[name];
  return (
    <div className="space-y-1.5">
      <div className="flex gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          defaultChecked={state.values[name] === "on"}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          className="mt-0.5 size-4 shrink-0 accent-brand-600"
        />
        <label htmlFor={id} className="text-sm leading-relaxed text-ink">
          {children}
        </label>
      </div>
      <Problem id={`${id}-problem`} message={problem} />
    </div>
  );
}

/**
 * /product/{id}/report and /store/{id}/report, rendered on the server (features/reports): a plain form
 * that works without JavaScript. A copyright report asks for a DMCA notice's elements; their fieldset
 * shows once Copyright is chosen (CSS `:has`, no script), and the server checks them whatever is shown.
 */
export function ReportFormPage({ target, state = EMPTY }: { target: ReportTarget; state?: ReportFormState }) {
  const { t } = useI18n();
  const storeName = useStoreName();
  const name = target.kind === "store" ? storeName(target.name) : (target.name ?? "");
  const hasProblems = Object.keys(state.problems).length > 0;
  const reasonProblem = state.problems.reason;
  return (
    <CreatorPageShell creator={target.creator} languageSwitcher>
      <section className="mx-auto max-w-2xl px-4 py-10 sm:px-6 sm:py-14">
        <h1 className="flex items-center gap-3 text-2xl font-bold tracking-tight text-ink sm:text-3xl">
          <Flag className="size-6 shrink-0 text-brand-600" aria-hidden="true" />
          {t(target.kind === "product" ? "report.title.product" : "report.title.store")}
        </h1>
        <p className="mt-3 text-base leading-relaxed break-words text-muted">
          {target.kind === "product"
            ? t("report.intro.product", { title: name })
            : t("report.intro.store", { name })}
        </p>
        {(state.refused || hasProblems) && (
          <p role="alert" className="mt-6 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {state.refused ? t(REPORT_MESSAGE_KEYS[state.refused]) : t("report.fixFields")}
          </p>
        )}
        <form method="post" action={target.formPath} noValidate className="group mt-8 space-y-8">
          <fieldset
            className="space-y-3"
            aria-describedby={reasonProblem ? "report-reason-problem" : undefined}
          >
            <legend className="mb-3 text-base font-semibold text-ink">{t("report.reason.legend")}</legend>
            {REPORT_REASONS.map((reason) => (
              <div
                key={reason}
                className="flex gap-3 rounded-lg border border-line bg-white px-3 py-2.5 has-checked:border-brand-500"
              >
                <input
                  id={`report-reason-${reason}`}
                  name="reason"
                  type="radio"
                  value={reason}
                  required
                  defaultChecked={state.values.reason === reason}
                  aria-describedby={`report-reason-${reason}-hint`}
                  className="mt-0.5 size-4 shrink-0 accent-brand-600"
                />
                <div className="min-w-0">
                  <label htmlFor={`report-reason-${reason}`} className="block text-sm font-medium text-ink">
                    {t(`report.reason.${reason}`)}
                  </label>
                  <p id={`report-reason-${reason}-hint`} className="text-sm text-muted">
                    {t(`report.reason.${reason}Hint`)}
                  </p>
                </div>
              </div>
            ))}
            <Problem id="report-reason-problem" message={reasonProblem} />
          </fieldset>

          <fieldset className="hidden rounded-xl border border-line bg-white p-4 group-has-[#report-reason-copyright:checked]:block sm:p-6">
            <legend className="px-1 text-base font-semibold text-ink">{t("report.dmca.legend")}</legend>
            <div className="space-y-5">
              <p className="text-sm leading-relaxed text-muted">{t("report.dmca.intro")}</p>
              <TextField
                name="work"
                label={t("report.dmca.work.label")}
                hint={t("report.dmca.work.hint")}
                state={state}
                multiline
              />
              <TextField
                name="location"
                label={t("report.dmca.location.label")}
                state={state}
                type="url"
                defaultValue={target.url}
              />
              <TextField
                name="fullName"
                label={t("report.dmca.fullName.label")}
                state={state}
                autoComplete="name"
              />
              <TextField name="contact" label={t("report.dmca.contact.label")} state={state} multiline />
              <Statement name="goodFaith" state={state}>
                {t("report.dmca.goodFaith")}
              </Statement>
              <Statement name="accuracy" state={state}>
                {t("report.dmca.accuracy")}
              </Statement>
              <TextField
                name="signature"
                label={t("report.dmca.signature.label")}
                hint={t("report.dmca.signature.hint")}
                state={state}
              />
            </div>
          </fieldset>

          <TextField
            name="details"
            label={t("report.details.label")}
            hint={t("report.details.hint")}
            state={state}
            multiline
          />
          <TextField
            name="email"
            label={t("report.email.label")}
            hint={t("report.email.hint")}
            state={state}
            type="email"
            autoComplete="email"
          />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
            <a
              href={target.pagePath}
              className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
            >
              {t(target.kind === "product" ? "report.backToProduct" : "report.backToStore")}
            </a>
            <Button type="submit" size="lg">
              {t("report.submit")}
            </Button>
          </div>
        </form>
      </section>
    </CreatorPageShell>
  );
}

/** After a report: received (or already being reviewed), what happens next, and the reference. */
export function ReportSentPage({
  target,
  email,
  outcome,
  reference,
}: {
  target: ReportTarget;
  email: string;
  outcome: "received" | "alreadyReviewed";
  reference: string;
}) {
  const { t, rich } = useI18n();
  return (
    <CreatorPageShell creator={target.creator}>
      <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center sm:py-24">
        <span className="flex size-14 items-center justify-center rounded-full bg-emerald-50 text-emerald-700">
          <MailCheck className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-ink">{t("report.sent.title")}</h1>
        <p role="status" className="mt-3 text-base leading-relaxed break-words text-ink">
          {t(REPORT_MESSAGE_KEYS[outcome])}
        </p>
        {outcome === "received" && (
          <p className="mt-3 text-sm leading-relaxed break-words text-muted">
            {rich<ReactNode>("report.sent.next", {
              email,
              b: (chunks) => (
                <span key="email" className="font-semibold text-ink">
                  {chunks}
                </span>
              ),
            })}
          </p>
        )}
        <p className="mt-2 text-xs break-all text-muted">{t("report.sent.reference", { id: reference })}</p>
        <Button asChild variant="secondary" size="lg" className="mt-8">
          <a href={target.pagePath}>
            {t(target.kind === "product" ? "report.backToProduct" : "report.backToStore")}
          </a>
        </Button>
      </section>
    </CreatorPageShell>
  );
}

/**
 * A report post refused by the rate limit: said before anything of the post is looked at, so the page
 * names nothing (not even whether the product exists), only the way back.
 */
export function ReportRefusedPage({ kind, backHref }: { kind: "product" | "store"; backHref: string }) {
  const { t } = useI18n();
  return (
    <CreatorPageShell creator={null}>
      <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center sm:py-24">
        <h1 className="text-3xl font-bold tracking-tight text-ink">{t("report.refused.title")}</h1>
        <p role="alert" className="mt-6 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {t(REPORT_MESSAGE_KEYS.rateLimited)}
        </p>
        <Button asChild variant="secondary" size="lg" className="mt-8">
          <a href={backHref}>{t(kind === "product" ? "report.backToProduct" : "report.backToStore")}</a>
        </Button>
      </section>
    </CreatorPageShell>
  );
}
