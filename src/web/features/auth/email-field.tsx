import type { ComponentProps } from "react";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";

/**
 * The labelled email input every auth form uses, with its error under it; pass react-hook-form's
 * `register("email")` through.
 */
export function EmailField({
  id,
  error,
  ...input
}: { id: string; error: string | undefined } & Omit<ComponentProps<typeof Input>, "id" | "type">) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Email</Label>
      <Input
        id={id}
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        {...fieldErrorProps(`${id}-error`, error)}
        {...input}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
