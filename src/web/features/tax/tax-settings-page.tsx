import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, Circle, ExternalLink, Landmark, RefreshCw } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "sonner";
import {
  type StoreTaxSettings,
  type StoreTaxSettingsInput,
  storeTaxSettingsSchema,
  TAX_MESSAGES,
  type TaxBehavior,
  WITHDRAWAL_WAIVER_TEXT,
} from "../../../contracts/tax";
import { BackLink } from "../../components/back-link";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RadioCards } from "../../components/ui/radio-card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { Textarea } from "../../components/ui/textarea";
import { ApiError, api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";
import { SellerGate } from "../seller/seller-gate";

const saveTaxSettings = (input: StoreTaxSettingsInput) =>
  api("/api/store-tax", { method: "PUT", body: input, schema: storeTaxSettingsSchema });

function useTaxSettings(userId: string) {
  return useQuery({
    queryKey: sellerKeys.tax(userId),
    queryFn: ({ signal }) => api("/api/store-tax", { schema: storeTaxSettingsSchema, signal }),
  });
}

/** "US-NY", "DE", or "EU (non-Union OSS, via IE)": an OSS registration covers every member state. */
function registrationLabel(registration: StoreTaxSettings["registrations"][number]): string {
  if (registration.type === "oss_union") return `EU (Union OSS, via ${registration.country})`;
  if (registration.type === "oss_non_union") return `EU (non-Union OSS, via ${registration.country})`;
  return registration.state ? `${registration.country}-${registration.state}` : registration.country;
}

const BEHAVIOR_OPTIONS = [
  { value: "exclusive", label: "Prices exclude tax", hint: "Tax is added at checkout; pages say “+ tax”." },
  {
    value: "inclusive",
    label: "Prices include tax",
    hint: "Buyers pay the price shown; pages say “incl. VAT where applicable”.",
  },
] as const;

/** /dashboard/tax: Stripe Tax's checklist, collection on or off, the invoices' details, the waiver. */
export function TaxSettingsPage() {
  return <SellerGate>{({ user }) => <TaxSettingsView userId={user.id} />}</SellerGate>;
}

function TaxSettingsView({ userId }: { userId: string }) {
  const settings = useTaxSettings(userId);
  return (
    <div className="space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <div className="min-w-0">
        <h1 className="flex items-center gap-2 text-3xl font-bold tracking-tight text-ink">
          <Landmark aria-hidden="true" className="size-7 text-brand-600" />
          Tax &amp; invoices
        </h1>
        <p className="mt-1 max-w-2xl text-sm text-muted">
          You are the seller: tax is collected by Stripe Tax on your own Stripe account (Stripe charges 0.5%
          of taxed sales; Flatfee takes nothing). You file and pay the returns; the{" "}
          <Link to="/dashboard/tax/report" className="font-medium text-brand-700 hover:underline">
            tax report
          </Link>{" "}
          and the{" "}
          <Link to="/dashboard/tax/guide" className="font-medium text-brand-700 hover:underline">
            tax guide
          </Link>{" "}
          help.
        </p>
      </div>
      {settings.isPending ? (
        <PageSpinner label="Loading your tax settings" />
      ) : settings.isError || !settings.data ? (
        <RetryNotice message="Your tax settings didn't load." onRetry={() => void settings.refetch()} />
      ) : (
        <>
          <Checklist
            settings={settings.data}
            checking={settings.isFetching}
            onCheck={() => void settings.refetch()}
          />
          <TaxSettingsForm key={settings.dataUpdatedAt} userId={userId} saved={settings.data} />
        </>
      )}
    </div>
  );
}

function Checklist({
  settings,
  checking,
  onCheck,
}: {
  settings: StoreTaxSettings;
  checking: boolean;
  onCheck: () => void;
}) {
  const active = settings.stripeTaxStatus === "active";
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <CardTitle>Stripe Tax on your account</CardTitle>
          <Badge tone={active ? "success" : "warning"}>{active ? "Active" : "Not ready"}</Badge>
        </div>
        <CardDescription>
          {active
            ? "Stripe Tax is ready. It collects where you're registered and records every other sale as not collected."
            : "Finish these in your Stripe dashboard, then check again. We also hear from Stripe when you change them."}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <ul className="space-y-3">
          {settings.checklist.map((item) => (
            <li key={item.key} className="flex flex-wrap items-start gap-3">
              {item.done ? (
                <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-600" />
              ) : (
                <Circle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-slate-400" />
              )}
              <span className="min-w-0 flex-1 text-sm text-ink">
                {item.label}
                <span className="sr-only">{item.done ? " (done)" : " (to do)"}</span>
              </span>
              {!item.done && item.fixUrl && (
                <a
                  href={item.fixUrl}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
                >
                  Open in Stripe <ExternalLink aria-hidden="true" className="size-3.5" />
                  <span className="sr-only">(opens in a new tab)</span>
                </a>
              )}
              {!item.done && item.key === "payout_account" && (
                <Link to="/dashboard" className="text-sm font-medium text-brand-700 hover:underline">
                  Connect Stripe
                </Link>
              )}
            </li>
          ))}
        </ul>
        {settings.registrations.length > 0 && (
          <p className="text-sm text-muted">
            Registered in: {settings.registrations.map(registrationLabel).join(", ")}
          </p>
        )}
        <Button variant="secondary" size="sm" onClick={onCheck} disabled={checking}>
          <RefreshCw aria-hidden="true" className={`size-4 ${checking ? "animate-spin" : ""}`} />
          {checking ? "Checking…" : "Check again"}
        </Button>
      </CardContent>
    </Card>
  );
}

interface TaxFormValues {
  collectTax: boolean;
  taxBehavior: TaxBehavior;
  legalName: string;
  legalAddress: string;
  taxId: string;
  invoicePrefix: string;
  waiverOutsideEu: boolean;
}

type TaxField = keyof TaxFormValues;
const FIELDS: readonly TaxField[] = ["legalName", "legalAddress", "taxId", "invoicePrefix"];

function TaxSettingsForm({ userId, saved }: { userId: string; saved: StoreTaxSettings }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | undefined>();
  const { register, handleSubmit, watch, setValue, setError, formState } = useForm<TaxFormValues>({
    defaultValues: {
      collectTax: saved.collectTax,
      taxBehavior: saved.taxBehavior,
      legalName: saved.legalName ?? "",
      legalAddress: saved.legalAddress ?? "",
      taxId: saved.taxId ?? "",
      invoicePrefix: saved.invoicePrefix,
      waiverOutsideEu: saved.waiverOutsideEu,
    },
  });
  const { errors } = formState;
  const save = useMutation({
    mutationFn: saveTaxSettings,
    onSuccess: (next) => {
      queryClient.setQueryData(sellerKeys.tax(userId), next);
      toast.success("Tax settings saved");
    },
  });
  const active = saved.stripeTaxStatus === "active";
  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await save.mutateAsync(values);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const field = error.details.field;
      if (typeof field === "string" && (FIELDS as readonly string[]).includes(field)) {
        setError(field as TaxField, { message: error.message }, { shouldFocus: true });
      } else setFormError(error.message);
      toast.error("Tax settings not saved", { description: error.message });
    }
  });
  const text = (name: TaxField) => ({
    id: `${id}-${name}`,
    disabled: save.isPending,
    ...fieldErrorProps(`${id}-${name}-error`, errors[name]?.message),
    ...register(name),
  });
  const prefix = watch("invoicePrefix");
  return (
    <form onSubmit={onSubmit} className="space-y-6" noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Collecting tax</CardTitle>
          <CardDescription>
            With collection on, Checkout asks for the buyer's address and Stripe Tax adds (or includes) the
            tax of their place, where you're registered.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <label className="flex cursor-pointer items-start gap-3 text-sm text-ink">
            <input
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 accent-brand-600"
              disabled={save.isPending || (!active && !saved.collectTax)}
              aria-describedby={`${id}-collect-hint`}
              {...register("collectTax")}
            />
            <span className="min-w-0">
              <span className="block font-medium">Collect tax automatically</span>
              <span id={`${id}-collect-hint`} className="block text-xs text-muted">
                {active ? "Stripe Tax is active on your account." : TAX_MESSAGES.notActive}
              </span>
            </span>
          </label>
          <RadioCards
            id={`${id}-behavior`}
            label="Whether prices include tax"
            value={watch("taxBehavior")}
            options={BEHAVIOR_OPTIONS}
            onChange={(value) => setValue("taxBehavior", value, { shouldDirty: true })}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Your invoices</CardTitle>
          <CardDescription>
            Every paid order gets an invoice in your name, numbered without gaps; a refund gets a credit note.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-legalName`}>Legal name</Label>
            <Input autoComplete="organization" maxLength={200} {...text("legalName")} />
            <FieldError id={`${id}-legalName-error`} message={errors.legalName?.message} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-taxId`}>Your VAT / tax ID</Label>
            <Input autoComplete="off" maxLength={40} placeholder="e.g. DE123456789" {...text("taxId")} />
            <FieldError id={`${id}-taxId-error`} message={errors.taxId?.message} />
          </div>
          <div className="space-y-1.5 sm:col-span-2">
            <Label htmlFor={`${id}-legalAddress`}>Address</Label>
            <Textarea rows={3} maxLength={500} autoComplete="street-address" {...text("legalAddress")} />
            <FieldError id={`${id}-legalAddress-error`} message={errors.legalAddress?.message} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-invoicePrefix`}>Invoice number prefix</Label>
            <Input
              autoComplete="off"
              maxLength={20}
              {...text("invoicePrefix")}
              {...fieldErrorProps(
                `${id}-invoicePrefix-error`,
                errors.invoicePrefix?.message,
                `${id}-prefix-hint`,
              )}
            />
            <p id={`${id}-prefix-hint`} className="text-xs text-muted">
              Your next invoice: <span className="font-mono">{prefix}000001</span> (or the next number)
            </p>
            <FieldError id={`${id}-invoicePrefix-error`} message={errors.invoicePrefix?.message} />
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Right of withdrawal</CardTitle>
          <CardDescription>
            EU and UK law: before paying for a download, buyers agree to get it at once and give up their
            14-day right of withdrawal. Checkout asks them, and their consent is kept with the order and shown
            on the receipt and invoice.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <blockquote className="rounded-lg border-l-4 border-brand-200 bg-slate-50 px-4 py-3 text-sm text-ink">
            {WITHDRAWAL_WAIVER_TEXT}
          </blockquote>
          <label className="flex cursor-pointer items-start gap-3 text-sm text-ink">
            <input
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 accent-brand-600"
              disabled={save.isPending}
              aria-describedby={`${id}-waiver-hint`}
              {...register("waiverOutsideEu")}
            />
            <span className="min-w-0">
              <span className="block font-medium">Ask buyers outside the EU and UK too</span>
              <span id={`${id}-waiver-hint`} className="block text-xs text-muted">
                {TAX_MESSAGES.waiverRequiredInEu} A buyer whose country we can't tell is asked.
              </span>
            </span>
          </label>
        </CardContent>
      </Card>
      {formError && (
        <p role="alert" className="text-sm text-red-700">
          {formError}
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save tax settings"}
        </Button>
      </div>
    </form>
  );
}
