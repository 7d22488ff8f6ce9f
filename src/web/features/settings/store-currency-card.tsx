import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { toast } from "sonner";
import {
  CURRENCY_MESSAGES,
  type StoreCurrencyInput,
  type StoreCurrencySettings,
} from "../../../contracts/currencies";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { fieldClasses } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";
import {
  saveStoreCurrency,
  storeCurrencySettingsQuery,
  useStoreCurrencySettings,
} from "../../lib/store-currency";
import { cn } from "../../lib/utils";

export const ADAPTIVE_PRICING_LABEL = "Let buyers pay in their own currency (Stripe Adaptive Pricing)";
export const SAVE_FAILED_TITLE = "Couldn't save the currency settings";

/** The note under the Adaptive Pricing switch, naming the store currency ("USD"). */
export const adaptivePricingNote = (currency: string) =>
  `Buyers without a fixed price in their currency see a converted price on Checkout, and members keep paying in their currency, converted at every renewal. Stripe's conversion fee (2–4%) is paid by the buyer; you receive your price in ${currency.toUpperCase()}.`;

/** What the card holds: the currency picked and whether Adaptive Pricing is on. */
export type CurrencyChoice = { currency: string; adaptivePricing: boolean };

/**
 * The PUT body: only what changed (a locked currency is never sent, the server would refuse it with
 * `currency_locked`); empty when nothing did.
 */
export function storeCurrencyChanges(
  saved: StoreCurrencySettings,
  chosen: CurrencyChoice,
): StoreCurrencyInput {
  return {
    ...(!saved.locked && chosen.currency !== saved.currency ? { currency: chosen.currency } : {}),
    ...(chosen.adaptivePricing !== saved.adaptivePricing ? { adaptivePricing: chosen.adaptivePricing } : {}),
  };
}

type Problem = { field: "currency" | "adaptivePricing" | "form"; message: string };

/** The field a refusal is about (`details.field` of 422 currency_not_supported / currency_not_settled). */
function problemOf(error: unknown): Problem {
  const message = error instanceof Error ? error.message : "Please try again";
  const field = error instanceof ApiError ? error.details.field : undefined;
  if (error instanceof ApiError && error.code === "currency_locked") return { field: "currency", message };
  return { field: field === "currency" || field === "adaptivePricing" ? field : "form", message };
}

/**
 * Save: PUT /api/store-currency; the answer is the new settings. The seller status (which every
 * dashboard page reads the store currency from), products and totals are fetched again, so amounts
 * everywhere show in the new currency.
 */
function useSaveStoreCurrency(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveStoreCurrency,
    onSuccess: async (settings) => {
      queryClient.setQueryData(storeCurrencySettingsQuery(userId).queryKey, settings);
      await queryClient.invalidateQueries({ queryKey: sellerKeys.status(userId) });
      await queryClient.invalidateQueries({ queryKey: sellerKeys.all(userId) });
      await queryClient.invalidateQueries({ queryKey: ["public", "store", userId] });
    },
  });
}

/**
 * The card's form, for settings that are loaded. Its button is "Update currency", not a second "Save"
 * beside the store form's.
 */
export function StoreCurrencyForm({ userId, saved }: { userId: string; saved: StoreCurrencySettings }) {
  const id = useId();
  const [chosen, setChosen] = useState<CurrencyChoice>({
    currency: saved.currency,
    adaptivePricing: saved.adaptivePricing,
  });
  const [problem, setProblem] = useState<Problem | null>(null);
  const { mutate, isPending } = useSaveStoreCurrency(userId);
  const changes = storeCurrencyChanges(saved, chosen);
  const changed = Object.keys(changes).length > 0;
  const ids = {
    currency: `${id}-currency`,
    currencyHint: `${id}-currency-hint`,
    adaptive: `${id}-adaptive`,
    adaptiveHint: `${id}-adaptive-hint`,
  };
  const errorOf = (field: Problem["field"]) => (problem?.field === field ? problem.message : undefined);
  const choose = (next: Partial<CurrencyChoice>) => {
    setProblem(null);
    setChosen((current) => ({ ...current, ...next }));
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setProblem(null);
    mutate(changes, {
      onSuccess: (settings) => {
        setChosen({ currency: settings.currency, adaptivePricing: settings.adaptivePricing });
        toast.success(CURRENCY_MESSAGES.updatedTitle);
      },
      onError: (error) => {
        if (isAlreadyReported(error)) return;
        const refused = problemOf(error);
        setProblem(refused);
        toast.error(SAVE_FAILED_TITLE, { description: refused.message });
        if (refused.field !== "form") {
          document.getElementById(refused.field === "currency" ? ids.currency : ids.adaptive)?.focus();
        }
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-6 p-6">
      <div className="space-y-2">
        <Label htmlFor={ids.currency}>Store currency</Label>
        <select
          id={ids.currency}
          className={cn(fieldClasses, "block h-10 w-full sm:max-w-xs")}
          value={chosen.currency}
          disabled={saved.locked || isPending}
          {...fieldErrorProps(`${ids.currency}-error`, errorOf("currency"), ids.currencyHint)}
          onChange={(event) => choose({ currency: event.target.value })}
        >
          {saved.choices.map((choice) => (
            <option key={choice.code} value={choice.code}>
              {choice.name} ({choice.code.toUpperCase()})
            </option>
          ))}
        </select>
        <p id={ids.currencyHint} className="text-xs text-muted">
          {saved.locked
            ? CURRENCY_MESSAGES.locked
            : "Your prices, sales and totals are in this currency. Prices are not converted when you change it: check your products after saving. It can't change after your first sale."}
        </p>
        <FieldError id={`${ids.currency}-error`} message={errorOf("currency")} />
      </div>
      <div className="space-y-2">
        <label htmlFor={ids.adaptive} className="flex cursor-pointer items-start gap-3 text-sm text-ink">
          <input
            id={ids.adaptive}
            type="checkbox"
            role="switch"
            aria-checked={chosen.adaptivePricing}
            className="peer sr-only"
            checked={chosen.adaptivePricing}
            disabled={isPending}
            {...fieldErrorProps(`${ids.adaptive}-error`, errorOf("adaptivePricing"), ids.adaptiveHint)}
            onChange={(event) => choose({ adaptivePricing: event.target.checked })}
          />
          <span
            aria-hidden="true"
            className="relative mt-0.5 h-6 w-10 shrink-0 rounded-full bg-slate-300 transition-colors peer-checked:bg-brand-600 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 peer-focus-visible:ring-offset-2 peer-disabled:opacity-60 after:absolute after:top-0.5 after:left-0.5 after:size-5 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:after:translate-x-4"
          />
          <span className="min-w-0">
            <span className="block font-medium">{ADAPTIVE_PRICING_LABEL}</span>
            <span id={ids.adaptiveHint} className="block text-xs text-muted">
              {adaptivePricingNote(chosen.currency)}
            </span>
          </span>
        </label>
        <FieldError id={`${ids.adaptive}-error`} message={errorOf("adaptivePricing")} />
      </div>
      <FieldError id={`${id}-form-error`} message={errorOf("form")} />
      <div className="flex justify-end border-t border-line pt-6">
        <Button type="submit" disabled={isPending || !changed}>
          {isPending ? "Updating..." : "Update currency"}
        </Button>
      </div>
    </form>
  );
}

/** The settings page's Currency card: the store currency and Stripe Adaptive Pricing. */
export function StoreCurrencyCard({ userId }: { userId: string }) {
  const { data, isPending, isError, refetch } = useStoreCurrencySettings(userId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Currency</CardTitle>
        <CardDescription>What your store sells in, and how buyers elsewhere pay.</CardDescription>
      </CardHeader>
      {isPending ? (
        <div className="flex justify-center p-6">
          <Spinner label="Loading your currency settings" />
        </div>
      ) : isError || !data ? (
        <div className="p-6">
          <RetryNotice message="We couldn't load your currency settings." onRetry={() => void refetch()} />
        </div>
      ) : (
        <StoreCurrencyForm userId={userId} saved={data} />
      )}
    </Card>
  );
}
