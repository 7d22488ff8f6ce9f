import { MailQuestion, X } from "lucide-react";
import { Button } from "../../components/ui/button";
import { useI18n } from "../../lib/i18n";
import { type ResendAnswer, ResendLinkForm } from "./resend-link-form";

export type { ResendAnswer };

/**
 * 'Resend my download link' under Buy Now, for buyers who lost their receipt or let the link expire.
 * Closed, it is a popover the button opens without any script; the form posts to the server, which
 * renders the page again with this panel open in place and its answer.
 */
export function ResendLinkPanel({ productId, answer }: { productId: string; answer?: ResendAnswer }) {
  const { t } = useI18n();
  const title = t("resend.title");
  const id = `resend-${productId}`;
  const form = (
    <ResendLinkForm
      action={`/product/${productId}/resend-link`}
      id={id}
      answer={answer}
      description={
        <p id={`${id}-description`} className="text-sm text-muted">
          {t("resend.intro")}
        </p>
      }
    />
  );
  const heading = (
    <h2 id={`${id}-title`} className="mb-2 text-lg font-semibold text-ink">
      {title}
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
        {title}
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
          <span className="sr-only">{t("resend.close")}</span>
        </button>
      </div>
    </div>
  );
}
