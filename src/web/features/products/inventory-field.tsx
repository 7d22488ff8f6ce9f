import { useId } from "react";
import { type Control, Controller, type UseFormRegister } from "react-hook-form";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RadioGroup, RadioGroupItem } from "../../components/ui/radio-group";
import type { ProductFormValues } from "./product-form";

const OPTIONS = [
  { value: "unlimited", label: "Unlimited", hint: "Sell as many copies as people buy" },
  { value: "limited", label: "Limited", hint: "Stop selling after a set number" },
] as const;

/** Inventory radio with Available Quantity, shown only when limited. */
export function InventoryField({
  control,
  register,
  limited,
  quantityInvalid,
  disabled,
}: {
  control: Control<ProductFormValues>;
  register: UseFormRegister<ProductFormValues>;
  limited: boolean;
  quantityInvalid: boolean;
  disabled: boolean;
}) {
  const id = useId();
  return (
    <fieldset className="space-y-3" disabled={disabled}>
      <legend className="text-sm font-medium text-ink">Inventory</legend>
      <Controller
        control={control}
        name="inventoryType"
        render={({ field }) => (
          <RadioGroup
            value={field.value}
            onValueChange={field.onChange}
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
          <Label htmlFor={`${id}-quantity`}>Available Quantity</Label>
          <Input
            id={`${id}-quantity`}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            placeholder="e.g. 100"
            aria-invalid={quantityInvalid || undefined}
            className="sm:max-w-48"
            {...register("quantityAvailable")}
          />
        </div>
      )}
    </fieldset>
  );
}
