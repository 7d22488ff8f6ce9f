import type { UseFormRegister } from "react-hook-form";
import { LICENSE_MESSAGES } from "../../../contracts/licenses";
import type { ProductFormValues } from "../products/product-form";

/**
 * The product form's "Issue license keys" switch (/new and the edit page). Turned on later, it gives keys
 * to new orders only; turned off, keys already issued keep working (the seller disables them per sale).
 */
export function LicenseKeysField({
  register,
  editing,
  disabled,
}: {
  register: UseFormRegister<ProductFormValues>;
  editing: boolean;
  disabled: boolean;
}) {
  return (
    <label className="flex cursor-pointer items-start gap-3 text-sm text-ink">
      <input
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600"
        disabled={disabled}
        {...register("issueLicenseKeys")}
      />
      <span className="min-w-0">
        <span className="block font-medium">{LICENSE_MESSAGES.fieldLabel}</span>
        <span className="block text-xs text-muted">
          {LICENSE_MESSAGES.fieldHint}
          {editing && " Changing this affects new orders only; keys already issued keep working."}
        </span>
      </span>
    </label>
  );
}
