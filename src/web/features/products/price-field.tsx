import type { UseFormRegister } from "react-hook-form";
import { formatWholeMoney } from "../../../contracts/money";
import { PRODUCT_LIMITS } from "../../../contracts/products";
import { MoneyInput } from "../../components/money-input";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Label } from "../../components/ui/label";
import { amountPlaceholder } from "../../lib/money";
import type { ProductFieldErrors, ProductFormValues } from "./product-form";

/** A price field in the store currency; `placeholder` is its example in dollars ("19.99"). */
function StorePriceInput({
  id,
  name,
  currency,
  placeholder,
  error,
  hintId,
  register,
  onChange,
}: {
  id: string;
  name: "price" | "suggestedPrice";
  currency: string;
  placeholder: string;
  error: string | undefined;
  hintId?: string | undefined;
  register: UseFormRegister<ProductFormValues>;
  onChange: () => void;
}) {
  return (
    <MoneyInput
      id={id}
      currency={currency}
      wrapperClassName="sm:max-w-48"
      placeholder={amountPlaceholder(placeholder, currency)}
      {...fieldErrorProps(`${id}-error`, error, hintId)}
      {...register(name, { onChange })}
    />
  );
}

/**
 * The price in the store currency, or with "Let buyers pay what they want" a minimum (which may be $0)
 * and the suggested price the product page's amount field starts at. $0 as a fixed price makes the
 * product free.
 */
export function PriceField({
  ids,
  currency,
  register,
  flexible,
  editing,
  errors,
  onChange,
  disabled,
}: {
  ids: { price: string; suggestedPrice: string };
  /** The store currency, which the prices are amounts of. */
  currency: string;
  register: UseFormRegister<ProductFormValues>;
  flexible: boolean;
  editing: boolean;
  errors: ProductFieldErrors;
  onChange: (field: "price" | "suggestedPrice") => void;
  disabled: boolean;
}) {
  const priceHint = `${ids.price}-hint`;
  const code = currency.toUpperCase();
  return (
    <fieldset className="space-y-3" disabled={disabled}>
      <legend className="sr-only">Pricing</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={ids.price}>
            {flexible ? `Minimum price (${code})` : `Price (${code})`} <span className="text-red-600">*</span>
          </Label>
          <StorePriceInput
            id={ids.price}
            name="price"
            currency={currency}
            placeholder={flexible ? "0.00" : "19.99"}
            error={errors.price}
            hintId={priceHint}
            register={register}
            onChange={() => onChange("price")}
          />
          <p id={priceHint} className="text-xs text-muted">
            {flexible
              ? `Buyers pay this or more; ${formatWholeMoney(0, currency)} lets them get it free.`
              : "Enter 0 to give it away free."}
          </p>
          <FieldError id={`${ids.price}-error`} message={errors.price} />
        </div>
        {flexible && (
          <div className="space-y-2">
            <Label htmlFor={ids.suggestedPrice}>
              Suggested price ({code}) <span className="text-red-600">*</span>
            </Label>
            <StorePriceInput
              id={ids.suggestedPrice}
              name="suggestedPrice"
              currency={currency}
              placeholder="10.00"
              error={errors.suggestedPrice}
              register={register}
              onChange={() => onChange("suggestedPrice")}
            />
            <FieldError id={`${ids.suggestedPrice}-error`} message={errors.suggestedPrice} />
          </div>
        )}
      </div>
      <label className="flex cursor-pointer items-start gap-3 text-sm text-ink">
        <input
          type="checkbox"
          className="mt-0.5 size-4 rounded border-slate-300 accent-brand-600"
          {...register("flexiblePrice", {
            onChange: () => {
              onChange("price");
              onChange("suggestedPrice");
            },
          })}
        />
        <span>
          <span className="block font-medium">Let buyers pay what they want</span>
          <span className="block text-xs text-muted">
            They see your price with a + and an amount field filled with your suggestion (up to{" "}
            {formatWholeMoney(PRODUCT_LIMITS.maxFlexiblePriceCents, currency)}).
          </span>
        </span>
      </label>
      {editing && (
        <p className="text-xs text-muted">A new price applies to new checkouts; past orders keep theirs.</p>
      )}
    </fieldset>
  );
}
