import { cn } from "../../lib/utils";

/** Something could not be loaded: says so, with a way to try again. */
export function RetryNotice({
  message,
  onRetry,
  className,
}: {
  message: string;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={cn("rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800", className)}
    >
      {message}{" "}
      <button
        type="button"
        onClick={onRetry}
        className="rounded font-medium underline underline-offset-2 outline-none focus-visible:ring-2 focus-visible:ring-red-500"
      >
        Try again
      </button>
    </div>
  );
}
