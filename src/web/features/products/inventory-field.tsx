import { type Control, Controller, type UseFormRegister } from "react-hook-form";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RadioCards } from "../../components/ui/radio-card";
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
          <RadioCards
            id={id}
            label="Inventory"
            value={field.value}
            options={OPTIONS}
            onChange={(value) => {
              field.onChange(value);
              onChange();
            }}
          />
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
