import type { UseFormRegister } from "react-hook-form";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import type { ProductFieldErrors, ProductFormValues } from "./product-form";

function DollarInput({
  id,
  name,
  placeholder,
  error,
  hintId,
  register,
  onChange,
}: {
  id: string;
  name: "price" | "suggestedPrice";
  placeholder: string;
  error: string | undefined;
  hintId?: string | undefined;
  register: UseFormRegister<ProductFormValues>;
  onChange: () => void;
}) {
  return (
    <div className="relative sm:max-w-48">
      <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-muted">
        $
      </span>
      <Input
        id={id}
        type="number"
        inputMode="decimal"
        step="0.01"
        min="0"
        placeholder={placeholder}
        className="pl-7"
        {...fieldErrorProps(`${id}-error`, error, hintId)}
        {...register(name, { onChange })}
      />
    </div>
  );
}

/**
 * The price, or with "Let buyers pay what they want" a minimum (which may be $0) and the suggested
 * price the product page's amount field starts at. $0 as a fixed price makes the product free.
 */
export function PriceField({
  ids,
  register,
  flexible,
  editing,
  errors,
  onChange,
  disabled,
}: {
  ids: { price: string; suggestedPrice: string };
  register: UseFormRegister<ProductFormValues>;
  flexible: boolean;
  editing: boolean;
  errors: ProductFieldErrors;
  onChange: (field: "price" | "suggestedPrice") => void;
  disabled: boolean;
}) {
  const priceHint = `${ids.price}-hint`;
  return (
    <fieldset className="space-y-3" disabled={disabled}>
      <legend className="sr-only">Pricing</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={ids.price}>
            {flexible ? "Minimum price (USD)" : "Price (USD)"} <span className="text-red-600">*</span>
          </Label>
          <DollarInput
            id={ids.price}
            name="price"
            placeholder={flexible ? "0.00" : "19.99"}
            error={errors.price}
            hintId={priceHint}
            register={register}
            onChange={() => onChange("price")}
          />
          <p id={priceHint} className="text-xs text-muted">
            {flexible
              ? "Buyers pay this or more; $0 lets them get it free."
              : "Enter 0 to give it away free."}
          </p>
          <FieldError id={`${ids.price}-error`} message={errors.price} />
        </div>
        {flexible && (
          <div className="space-y-2">
            <Label htmlFor={ids.suggestedPrice}>
              Suggested price (USD) <span className="text-red-600">*</span>
            </Label>
            <DollarInput
              id={ids.suggestedPrice}
              name="suggestedPrice"
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
            They see your price with a + and an amount field filled with your suggestion (up to $10,000).
          </span>
        </span>
      </label>
      {editing && (
        <p className="text-xs text-muted">A new price applies to new checkouts; past orders keep theirs.</p>
      )}
    </fieldset>
  );
}
