import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { firstValidationToast, type Toast } from "../../../contracts/auth";

export function showErrorToast({ title, description }: Toast): void {
  toast.error(title, description ? { description } : undefined);
}

export function showSuccessToast({ title, description }: Toast): void {
  toast.success(title, description ? { description } : undefined);
}

/**
 * A thrown fetch failure (server unreachable) has already been reported globally as
 * 'Network Error'; anything else is shown with the form's own failure title.
 */
export function showThrownError(error: unknown, title: string): void {
  if (error instanceof TypeError) return;
  showErrorToast({ title, description: error instanceof Error ? error.message : "Please try again" });
}

/**
 * Checks a form's values against its contract schema. On failure, marks every field that broke a
 * rule and shows the first failure as the spec's 'Validation Error' toast; answers undefined.
 */
export function validateForm<Values extends FieldValues, Output>(
  schema: z.ZodType<Output, Values>,
  values: Values,
  setError: UseFormSetError<Values>,
): Output | undefined {
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues)
    setError(issue.path[0] as Path<Values>, { message: issue.message });
  showErrorToast(firstValidationToast(parsed.error));
  return undefined;
}
