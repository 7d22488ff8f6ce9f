import { cn } from "../../lib/utils";

/**
 * What is wrong with one field, printed under it. The field points at it with `fieldErrorProps`, so a
 * screen reader reads the message with the field.
 */
export function FieldError({
  id,
  message,
  className,
}: {
  id: string;
  message?: string | undefined;
  className?: string;
}) {
  if (!message) return null;
  return (
    <p id={id} className={cn("text-sm text-red-700", className)}>
      {message}
    </p>
  );
}

/** The field's side of FieldError: marked invalid and described by the message while there is one. */
export function fieldErrorProps(errorId: string, message: string | undefined, otherDescriptions?: string) {
  const describedBy = [message ? errorId : undefined, otherDescriptions].filter(Boolean).join(" ");
  return {
    "aria-invalid": message ? true : undefined,
    "aria-describedby": describedBy || undefined,
  } as const;
}
