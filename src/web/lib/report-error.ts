import { toast } from "sonner";
import {
  appendErrorLog,
  describeError,
  ERROR_LOG_EVENT,
  type ErrorType,
  isLockManagerError,
} from "./error-log";

/** Appends to the local error log (product rules, Error catalogue) and tells an open monitor. Never throws. */
export function recordError(type: ErrorType, reason: unknown): void {
  try {
    const { message, stack } = describeError(reason);
    appendErrorLog(window.localStorage, {
      type,
      message,
      ...(stack ? { stack } : {}),
      timestamp: new Date().toISOString(),
      url: window.location.href,
      userAgent: window.navigator.userAgent,
    });
    window.dispatchEvent(new Event(ERROR_LOG_EVENT));
  } catch {
    // localStorage can be unavailable (sandboxed iframes); logging must not cause a second error.
  }
}

/** A global error: logged locally and shown as a toast. */
export function reportError(type: ErrorType, reason: unknown, title: string, description?: string): void {
  recordError(type, reason);
  const text = description ?? describeError(reason).message;
  // The same failure repeated (several queries hitting a down server) updates one toast, not a stack.
  toast.error(title, { id: `${title}:${text}`, description: text });
}

let installed = false;

/** Script errors and unhandled promise rejections anywhere in the page (product rules, Error catalogue). */
export function installGlobalErrorHandlers(): void {
  if (installed) return;
  installed = true;

  window.addEventListener("error", (event) => {
    const reason: unknown = event.error ?? event.message;
    reportError(
      "error",
      reason,
      "Error Detected",
      describeError(reason).message || "An unexpected error occurred",
    );
  });

  window.addEventListener("unhandledrejection", (event) => {
    if (isLockManagerError(event.reason)) return;
    reportError("unhandledrejection", event.reason, "Async Error Detected");
  });
}
