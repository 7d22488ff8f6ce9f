import type { ComponentProps } from "react";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";

/** The labelled email input every auth form uses; pass react-hook-form's `register("email")` through. */
export function EmailField({
  id,
  invalid,
  ...input
}: { id: string; invalid: boolean } & Omit<ComponentProps<typeof Input>, "id" | "type">) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Email</Label>
      <Input
        id={id}
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        aria-invalid={invalid ? true : undefined}
        {...input}
      />
    </div>
  );
}
