import type { ComponentProps, ReactNode } from "react";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Label } from "../../components/ui/label";
import { PasswordInput } from "./password-input";

/** A labelled password input with its error under it; `labelAside` sits at the end of the label row. */
export function PasswordField({
  id,
  label,
  error,
  labelAside,
  ...input
}: {
  id: string;
  label: string;
  error: string | undefined;
  labelAside?: ReactNode;
} & Omit<ComponentProps<typeof PasswordInput>, "id">) {
  return (
    <div className="space-y-2">
      {labelAside ? (
        <div className="flex items-center justify-between gap-3">
          <Label htmlFor={id}>{label}</Label>
          {labelAside}
        </div>
      ) : (
        <Label htmlFor={id}>{label}</Label>
      )}
      <PasswordInput id={id} {...fieldErrorProps(`${id}-error`, error)} {...input} />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
