import { useId } from "react";
import type { UseFormRegister } from "react-hook-form";
import { TAX_CATEGORIES, TAX_CATEGORY_LABELS } from "../../../contracts/tax";
import { fieldClasses } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { cn } from "../../lib/utils";
import type { ProductFormValues } from "./product-form";

/**
 * What the product is for tax: Stripe Tax applies each place's rules for e-books, software, audio or
 * video. Automatic decides from the files' types (a PDF is an e-book).
 */
export function TaxCategoryField({
  register,
  disabled,
}: {
  register: UseFormRegister<ProductFormValues>;
  disabled: boolean;
}) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>Tax category</Label>
      <select
        id={id}
        className={cn(fieldClasses, "h-10 sm:max-w-xs")}
        disabled={disabled}
        aria-describedby={hintId}
        {...register("taxCategory")}
      >
        <option value="">Automatic (from the files)</option>
        {TAX_CATEGORIES.map((category) => (
          <option key={category} value={category}>
            {TAX_CATEGORY_LABELS[category]}
          </option>
        ))}
      </select>
      <p id={hintId} className="text-xs text-muted">
        Used when your store collects tax: some places tax e-books, software or media at their own rates.
      </p>
    </div>
  );
}
