import { MailQuestion, X } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";

/** What the server answered the resend form with, shown in the panel it re-renders open. */
export interface ResendAnswer {
  email: string;
  problem?: string;
  sent?: string;
}

const TITLE = "Resend my download link";

/**
 * 'Resend my download link' under Buy Now, for buyers who lost their receipt or let the link expire.
 * Closed, it is a popover the button opens without any script; the form posts to the server, which
 * renders the page again with this panel open in place and its answer.
 */
export function ResendLinkPanel({ productId, answer }: { productId: string; answer?: ResendAnswer }) {
  const id = `resend-${productId}`;
  const form = (
    <form
      method="post"
      action={`/product/${productId}/resend-link`}
      noValidate
      className="space-y-3 text-left"
    >
      <p id={`${id}-description`} className="text-sm text-muted">
        Already bought this? Enter the email you paid with and we'll send a fresh link there.
      </p>
      <div className="space-y-1.5">
        <label htmlFor={`${id}-email`} className="text-sm font-medium text-ink">
          Email you bought with
        </label>
        <Input
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          defaultValue={answer?.email}
          aria-invalid={answer?.problem ? true : undefined}
          aria-describedby={answer?.problem ? `${id}-problem` : undefined}
        />
        {answer?.problem && (
          <p id={`${id}-problem`} role="alert" className="text-sm text-red-600">
            {answer.problem}
          </p>
        )}
      </div>
      <Button type="submit" className="w-full">
        Email me a new link
      </Button>
      {answer?.sent && (
        <p role="status" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {answer.sent}
        </p>
      )}
    </form>
  );
  const heading = (
    <h2 id={`${id}-title`} className="mb-2 text-lg font-semibold text-ink">
      {TITLE}
    </h2>
  );

  if (answer) {
    return (
      <section
        aria-labelledby={`${id}-title`}
        className="rounded-2xl border border-line bg-white p-6 shadow-card"
      >
        {heading}
        {form}
      </section>
    );
  }
  return (
    <div className="flex justify-center">
      <Button variant="link" size="sm" className="text-sm" popoverTarget={id}>
        <MailQuestion aria-hidden="true" />
        {TITLE}
      </Button>
      <div
        id={id}
        popover="auto"
        role="dialog"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-description`}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl border border-line bg-white p-6 shadow-lift backdrop:bg-slate-950/40"
      >
        <div className="pr-6">{heading}</div>
        {form}
        <button
          type="button"
          popoverTarget={id}
          popoverTargetAction="hide"
          className="absolute top-4 right-4 rounded-md p-1 text-muted transition-colors hover:bg-slate-100 hover:text-ink focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <X className="size-4" aria-hidden="true" />
          <span className="sr-only">Close</span>
        </button>
      </div>
    </div>
  );
}
