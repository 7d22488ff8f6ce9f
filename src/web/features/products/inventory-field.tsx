import { type Control, Controller, type UseFormRegister } from "react-hook-form";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RadioGroup, RadioGroupItem } from "../../components/ui/radio-group";
import type { ProductFormValues } from "./product-form";

const OPTIONS = [
  { value: "unlimited", label: "Unlimited", hint: "Sell as many copies as people buy" },
  { value: "limited", label: "Limited", hint: "Stop selling after a set number" },
] as const;

/**
 * Inventory radio with the quantity, shown only when limited. /new asks for the Available Quantity;
 * the edit page for the Total Quantity, whose hint says how many are sold, held and left.
 */
export function InventoryField({
  id,
  control,
  register,
  limited,
  quantityLabel,
  quantityHint,
  error,
  onChange,
  disabled,
}: {
  /** The quantity input's id (the form focuses it when its message appears). */
  id: string;
  control: Control<ProductFormValues>;
  register: UseFormRegister<ProductFormValues>;
  limited: boolean;
  quantityLabel: string;
  quantityHint?: string | undefined;
  error: string | undefined;
  /** The seller changed the inventory: the quantity's message no longer applies. */
  onChange: () => void;
  disabled: boolean;
}) {
  const hintId = `${id}-hint`;
  return (
    <fieldset className="space-y-3" disabled={disabled}>
      <legend className="text-sm font-medium text-ink">Inventory</legend>
      <Controller
        control={control}
        name="inventoryType"
        render={({ field }) => (
          <RadioGroup
            value={field.value}
            onValueChange={(value) => {
              field.onChange(value);
              onChange();
            }}
            className="grid gap-2 sm:grid-cols-2"
            aria-label="Inventory"
          >
            {OPTIONS.map((option) => (
              <Label
                key={option.value}
                htmlFor={`${id}-${option.value}`}
                className="flex cursor-pointer items-start gap-3 rounded-xl border border-line bg-white p-3 has-[[data-state=checked]]:border-brand-500 has-[[data-state=checked]]:bg-brand-50/50"
              >
                <RadioGroupItem id={`${id}-${option.value}`} value={option.value} className="mt-0.5" />
                <span>
                  <span className="block">{option.label}</span>
                  <span className="block text-xs font-normal text-muted">{option.hint}</span>
                </span>
              </Label>
            ))}
          </RadioGroup>
        )}
      />
      {limited && (
        <div className="space-y-2">
          <Label htmlFor={id}>{quantityLabel}</Label>
          <Input
            id={id}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            placeholder="e.g. 100"
            className="block sm:max-w-48"
            {...fieldErrorProps(`${id}-error`, error, quantityHint ? hintId : undefined)}
            {...register("quantityAvailable", { onChange })}
          />
          {quantityHint && (
            <p id={hintId} className="text-xs text-muted">
              {quantityHint}
            </p>
          )}
          <FieldError id={`${id}-error`} message={error} />
        </div>
      )}
    </fieldset>
  );
}
