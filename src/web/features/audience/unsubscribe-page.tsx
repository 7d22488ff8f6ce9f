import { Ban, MailX } from "lucide-react";
import { type Creator, CreatorPageShell } from "../../components/layout/creator-page-shell";
import { Button } from "../../components/ui/button";

export type UnsubscribeState =
  | { kind: "confirm"; email: string; sellerName: string; action: string }
  | { kind: "done"; email: string; sellerName: string }
  | { kind: "invalid"; message: string };

/**
 * A buyer's unsubscribe link, opened from a seller's email, without signing in: the page asks first (a
 * link opened by a mail scanner must not unsubscribe anyone) and a plain form confirms, no script
 * needed. Rendered on the server, never cached.
 */
export function UnsubscribePage({ state, creator }: { state: UnsubscribeState; creator: Creator | null }) {
  return (
    <CreatorPageShell creator={creator}>
      <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center sm:py-24">
        <span className="flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          {state.kind === "invalid" ? (
            <Ban className="size-7" aria-hidden="true" />
          ) : (
            <MailX className="size-7" aria-hidden="true" />
          )}
        </span>
        {state.kind === "confirm" && (
          <>
            <h1 className="mt-6 text-3xl font-bold tracking-tight wrap-anywhere text-ink">
              Unsubscribe from {state.sellerName}'s emails?
            </h1>
            <p className="mt-3 text-base leading-relaxed wrap-anywhere text-muted">
              {state.email} will no longer get messages and product updates from {state.sellerName}. Receipts
              and download links still come.
            </p>
            <form method="post" action={state.action} className="mt-8">
              <Button type="submit" size="lg">
                Unsubscribe
              </Button>
            </form>
          </>
        )}
        {state.kind === "done" && (
          <>
            <h1 className="mt-6 text-3xl font-bold tracking-tight text-ink">You're unsubscribed</h1>
            <p role="status" className="mt-3 text-base leading-relaxed wrap-anywhere text-muted">
              {state.email} won't get emails from {state.sellerName} any more. Receipts and download links
              still come.
            </p>
          </>
        )}
        {state.kind === "invalid" && (
          <>
            <h1 className="mt-6 text-3xl font-bold tracking-tight text-ink">This link doesn't work</h1>
            <p className="mt-3 text-base leading-relaxed text-muted">{state.message}</p>
            <Button asChild variant="secondary" size="lg" className="mt-8">
              <a href="/">Go to Flatfee</a>
            </Button>
          </>
        )}
      </section>
    </CreatorPageShell>
  );
}
