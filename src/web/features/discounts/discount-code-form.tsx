import { useId } from "react";
import { Controller, useForm } from "react-hook-form";
import { toast } from "sonner";
import { DISCOUNT_MESSAGES, type DiscountCode } from "../../../contracts/discounts";
import { formatMoney, minorUnitDigits } from "../../../contracts/money";
import type { SellerProduct } from "../../../contracts/products";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RadioCards } from "../../components/ui/radio-card";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError } from "../../lib/api";
import { amountPlaceholder, currencySymbol, DASHBOARD_LOCALE } from "../../lib/money";
import { useMoney, useStoreCurrency } from "../../lib/store-currency";
import {
  type DiscountFormField,
  type DiscountFormValues,
  discountFormProblems,
  EMPTY_DISCOUNT_FORM,
  formProblemsOf,
  toDiscountFields,
  toDiscountFormValues,
} from "./discount-form-values";
import { useSaveDiscountCode } from "./discounts-api";

/** Percent off, or an amount of the store currency off. */
const kindsIn = (currency: string) =>
  [
    { value: "percent", label: "Percent off", hint: "e.g. 20% off the price" },
    {
      value: "amount",
      label: "Amount off",
      hint: `e.g. ${formatMoney(500, currency, DASHBOARD_LOCALE)} off the price`,
    },
  ] as const;
/** How long a code lowers a membership's price (a Stripe coupon's duration). */
const MEMBERSHIP_DURATIONS = [
  { value: "once", label: "First payment", hint: "Takes off the first payment only" },
  { value: "forever", label: "Every payment", hint: "Takes off every renewal too" },
] as const;

const SCOPES = [
  { value: "all", label: "All products", hint: "Every product in your store, new ones too" },
  { value: "chosen", label: "Chosen products", hint: "Only the products you pick" },
] as const;

/**
 * Create a code, or edit `editing`. Every field's problem is shown next to it: the shared rules are
 * checked before sending, and the server's answer (a code already taken, say) lands on its field too.
 */
export function DiscountCodeForm({
  userId,
  editing,
  products,
  onDone,
}: {
  userId: string;
  editing: DiscountCode | null;
  products: SellerProduct[];
  onDone: () => void;
}) {
  const id = useId();
  const currency = useStoreCurrency();
  const money = useMoney();
  const { register, control, handleSubmit, watch, setError, clearErrors, formState } =
    useForm<DiscountFormValues>({
      defaultValues: editing ? toDiscountFormValues(editing, currency) : EMPTY_DISCOUNT_FORM,
    });
  const { mutateAsync: save, isPending: saving } = useSaveDiscountCode(userId);
  const kind = watch("kind");
  const appliesTo = watch("appliesTo");
  const fieldId = (name: DiscountFormField) => `${id}-${name}`;
  const errorOf = (name: DiscountFormField) => formState.errors[name]?.message;
  const errorProps = (name: DiscountFormField, hint?: string) =>
    fieldErrorProps(`${fieldId(name)}-error`, errorOf(name), hint ? `${fieldId(name)}-hint` : undefined);

  const showProblems = (problems: Partial<Record<DiscountFormField, string>>) => {
    const fields = Object.entries(problems) as Array<[DiscountFormField, string]>;
    fields.forEach(([field, message], index) => {
      setError(field, { message }, { shouldFocus: index === 0 });
    });
    return fields.length > 0;
  };

  const onSubmit = handleSubmit(async (values) => {
    clearErrors();
    if (showProblems(discountFormProblems(values, currency))) return;
    try {
      await save({ id: editing?.id ?? null, fields: toDiscountFields(values) });
      toast.success(editing ? DISCOUNT_MESSAGES.savedTitle : DISCOUNT_MESSAGES.createdTitle, {
        description: values.code.trim().toUpperCase(),
      });
      onDone();
    } catch (error) {
      if (isAlreadyReported(error)) return;
      const message = error instanceof Error ? error.message : "Please try again";
      toast.error(DISCOUNT_MESSAGES.saveFailedTitle, { description: message });
      const fields =
        error instanceof ApiError ? (error.details.fields as Record<string, unknown>) : undefined;
      showProblems(fields ? formProblemsOf(fields) : {});
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{editing ? `Edit ${editing.code}` : "New discount code"}</CardTitle>
        <CardDescription>
          Buyers type the code on a product page, or open an offer link that has it already.
        </CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate className="space-y-6 p-6">
        <div className="space-y-2">
          <Label htmlFor={fieldId("code")}>Code</Label>
          <Input
            id={fieldId("code")}
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g. SPRING-SALE"
            className="font-mono uppercase placeholder:normal-case"
            disabled={saving}
            {...errorProps("code", "hint")}
            {...register("code")}
          />
          <p id={`${fieldId("code")}-hint`} className="text-xs text-muted">
            Letters, digits, - and _. Buyers can type it in any case.
          </p>
          <FieldError id={`${fieldId("code")}-error`} message={errorOf("code")} />
        </div>

        <fieldset className="space-y-3" disabled={saving}>
          <legend className="text-sm font-medium text-ink">Discount</legend>
          <Controller
            control={control}
            name="kind"
            render={({ field }) => (
              <RadioCards
                id={fieldId("kind")}
                label="Discount type"
                value={field.value}
                options={kindsIn(currency)}
                onChange={(value) => {
                  field.onChange(value);
                  clearErrors("value");
                }}
              />
            )}
          />
          <div className="space-y-2">
            <Label htmlFor={fieldId("value")}>
              {kind === "percent" ? "Percent off" : `Amount off (${currency.toUpperCase()})`}
            </Label>
            <div className="relative max-w-48">
              <span
                aria-hidden="true"
                className={`pointer-events-none absolute inset-y-0 flex items-center text-sm text-muted ${kind === "percent" ? "right-3" : "left-3"}`}
              >
                {kind === "percent" ? "%" : currencySymbol(currency)}
              </span>
              <Input
                id={fieldId("value")}
                inputMode={kind === "amount" && minorUnitDigits(currency) === 0 ? "numeric" : "decimal"}
                placeholder={kind === "percent" ? "20" : amountPlaceholder("5.00", currency)}
                className={kind === "percent" ? "pr-8" : undefined}
                style={
                  kind === "percent"
                    ? undefined
                    : { paddingLeft: `calc(1.25rem + ${currencySymbol(currency).length}ch)` }
                }
                {...errorProps("value")}
                {...register("value")}
              />
            </div>
            <FieldError id={`${fieldId("value")}-error`} message={errorOf("value")} />
          </div>
        </fieldset>

        <fieldset className="space-y-3" disabled={saving}>
          <legend className="text-sm font-medium text-ink">Applies to</legend>
          <Controller
            control={control}
            name="appliesTo"
            render={({ field }) => (
              <RadioCards
                id={fieldId("appliesTo")}
                label="Applies to"
                value={field.value}
                options={SCOPES}
                onChange={(value) => {
                  field.onChange(value);
                  clearErrors("productIds");
                }}
              />
            )}
          />
          {appliesTo === "chosen" && (
            <div className="space-y-2">
              {products.length === 0 ? (
                <p className="text-sm text-muted">You have no products yet.</p>
              ) : (
                <ul
                  id={fieldId("productIds")}
                  aria-label="Products"
                  tabIndex={-1}
                  className="max-h-64 divide-y divide-line overflow-y-auto rounded-xl border border-line"
                  {...errorProps("productIds")}
                >
                  {products.map((product) => (
                    <li key={product.id}>
                      <label className="flex cursor-pointer items-center gap-3 px-3 py-2.5 text-sm hover:bg-slate-50">
                        <input
                          type="checkbox"
                          value={product.id}
                          className="size-4 shrink-0 accent-brand-600"
                          {...register("productIds", { onChange: () => clearErrors("productIds") })}
                        />
                        <span className="min-w-0 flex-1 truncate text-ink">{product.title}</span>
                        <span className="shrink-0 text-muted tabular-nums">
                          {money(product.priceCents, product.currency)}
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              )}
              <FieldError id={`${fieldId("productIds")}-error`} message={errorOf("productIds")} />
            </div>
          )}
        </fieldset>

        <fieldset className="space-y-3" disabled={saving}>
          <legend className="text-sm font-medium text-ink">On memberships</legend>
          <Controller
            control={control}
            name="membershipDuration"
            render={({ field }) => (
              <RadioCards
                id={fieldId("membershipDuration")}
                label="On memberships"
                value={field.value}
                options={MEMBERSHIP_DURATIONS}
                onChange={field.onChange}
              />
            )}
          />
        </fieldset>

        <fieldset className="space-y-3" disabled={saving}>
          <legend className="text-sm font-medium text-ink">Limits (optional)</legend>
          <div className="grid gap-4 sm:grid-cols-3">
            <div className="space-y-2">
              <Label htmlFor={fieldId("startsOn")}>Starts on</Label>
              <Input
                id={fieldId("startsOn")}
                type="date"
                {...errorProps("startsOn")}
                {...register("startsOn")}
              />
              <FieldError id={`${fieldId("startsOn")}-error`} message={errorOf("startsOn")} />
            </div>
            <div className="space-y-2">
              <Label htmlFor={fieldId("endsOn")}>Ends on</Label>
              <Input
                id={fieldId("endsOn")}
                type="date"
                {...errorProps("endsOn", "hint")}
                {...register("endsOn")}
              />
              <p id={`${fieldId("endsOn")}-hint`} className="text-xs text-muted">
                Works through the end of that day.
              </p>
              <FieldError id={`${fieldId("endsOn")}-error`} message={errorOf("endsOn")} />
            </div>
            <div className="space-y-2">
              <Label htmlFor={fieldId("maxUses")}>Maximum uses</Label>
              <Input
                id={fieldId("maxUses")}
                inputMode="numeric"
                placeholder="No limit"
                {...errorProps("maxUses", "hint")}
                {...register("maxUses")}
              />
              <p id={`${fieldId("maxUses")}-hint`} className="text-xs text-muted">
                Paid orders with the code.
              </p>
              <FieldError id={`${fieldId("maxUses")}-error`} message={errorOf("maxUses")} />
            </div>
          </div>
        </fieldset>

        <div className="flex flex-col-reverse gap-3 border-t border-line pt-6 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onDone} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : editing ? "Save changes" : "Create code"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
