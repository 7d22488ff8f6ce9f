import { Ban, FileText } from "lucide-react";
import { type Creator, CreatorPageShell } from "../../components/layout/creator-page-shell";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";

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
      /** The day corrections close, as text. */
      openUntil: string;
      pdfPath: string;
      action: string;
      fields: BillingFields;
      /** A field's problem, by field name; `form` for the whole form. */
      problems?: Partial<Record<keyof BillingFields | "form", string>>;
      saved?: string;
    }
  | { kind: "closed"; numberText: string; message: string; pdfPath: string }
  | { kind: "invalid"; message: string };

const FIELDS: { name: keyof BillingFields; label: string; autoComplete: string; wide?: boolean }[] = [
  { name: "name", label: "Full name", autoComplete: "name", wide: true },
  { name: "businessName", label: "Business name (optional)", autoComplete: "organization", wide: true },
  { name: "line1", label: "Address", autoComplete: "address-line1", wide: true },
  { name: "line2", label: "Address line 2 (optional)", autoComplete: "address-line2", wide: true },
  { name: "postalCode", label: "Postal code", autoComplete: "postal-code" },
  { name: "city", label: "City", autoComplete: "address-level2" },
  { name: "country", label: "Country (2-letter code)", autoComplete: "country" },
  { name: "taxId", label: "VAT ID (optional)", autoComplete: "off" },
];

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
  return (
    <CreatorPageShell creator={creator}>
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
            <h1 className="mt-5 text-2xl font-bold tracking-tight text-ink">This link doesn't work</h1>
            <p className="mt-2 text-base text-muted">{state.message}</p>
          </>
        )}
        {state.kind === "closed" && (
          <>
            <h1 className="mt-5 text-2xl font-bold tracking-tight wrap-anywhere text-ink">
              Invoice {state.numberText}
            </h1>
            <p role="status" className="mt-3 rounded-lg bg-slate-100 px-3 py-2 text-sm text-ink">
              {state.message}
            </p>
            <Button asChild variant="secondary" className="mt-6">
              <a href={state.pdfPath}>Download the invoice (PDF)</a>
            </Button>
          </>
        )}
        {state.kind === "form" && <BillingForm state={state} />}
      </section>
    </CreatorPageShell>
  );
}

function BillingForm({ state }: { state: Extract<BillingDetailsState, { kind: "form" }> }) {
  const problems = state.problems ?? {};
  return (
    <>
      <h1 className="mt-5 text-2xl font-bold tracking-tight wrap-anywhere text-ink">
        Billing details for invoice {state.numberText}
      </h1>
      <p className="mt-2 text-sm wrap-anywhere text-muted">
        {state.productTitle}
        {state.version > 1 ? ` · corrected, version ${state.version}` : ""}. You can correct these details
        until {state.openUntil}; the invoice keeps its number.
      </p>
      {state.saved && (
        <p role="status" className="mt-4 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {state.saved}
        </p>
      )}
      {problems.form && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {problems.form}
        </p>
      )}
      <form method="post" action={state.action} noValidate className="mt-6 grid gap-4 sm:grid-cols-2">
        {FIELDS.map((field) => {
          const problem = problems[field.name];
          const id = `billing-${field.name}`;
          return (
            <div key={field.name} className={`space-y-1.5 ${field.wide ? "sm:col-span-2" : ""}`}>
              <label htmlFor={id} className="text-sm font-medium text-ink">
                {field.label}
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
                  {problem}
                </p>
              )}
            </div>
          );
        })}
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <Button type="submit">Save billing details</Button>
          <a href={state.pdfPath} className="text-sm font-medium text-brand-700 underline">
            Download the invoice (PDF)
          </a>
        </div>
      </form>
    </>
  );
}
