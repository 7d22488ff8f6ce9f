import { ApiError } from "./api";

/**
 * Failures the app has already shown globally (network: a TypeError from fetch; a 5xx answer) or that
 * are not failures (the user cancelled). Callers show their own toast only for the others.
 */
export function isAlreadyReported(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  if (error instanceof DOMException && error.name === "AbortError") return true;
  return error instanceof ApiError && error.status >= 500;
}
