import { TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { Button } from "../../components/ui/button";
import { reportError } from "../../lib/report-error";

const reported = new WeakSet<object>();

function messageOf(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  return "An unexpected error occurred.";
}

/** The top-level error boundary (the router's errorElement): a render crash ends up here. */
export function ErrorScreen() {
  const error = useRouteError();
  const message = messageOf(error);

  useEffect(() => {
    // Report each crash once, even when React runs effects twice in development.
    const key = typeof error === "object" && error !== null ? error : null;
    if (key && reported.has(key)) return;
    if (key) reported.add(key);
    reportError("render", error, "Application Error", message);
  }, [error, message]);

  return (
    <main className="flex min-h-dvh items-center justify-center bg-canvas px-4">
      <div className="w-full max-w-lg rounded-2xl border border-line bg-white p-8 text-center shadow-card">
        <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600 ring-1 ring-red-100">
          <TriangleAlert className="size-6" aria-hidden="true" />
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-ink">Something went wrong</h1>
        <p className="mt-3 text-sm text-muted">The page hit an unexpected error and could not be shown.</p>
        <pre className="mt-5 max-h-40 overflow-auto rounded-lg border border-red-100 bg-red-50 px-4 py-3 text-left font-mono text-xs break-words whitespace-pre-wrap text-red-800">
          {message}
        </pre>
        {/* A plain link: the app that crashed is left behind by loading the landing page afresh. */}
        <Button asChild size="lg" className="mt-6">
          <a href="/">Return to Home</a>
        </Button>
      </div>
    </main>
  );
}
