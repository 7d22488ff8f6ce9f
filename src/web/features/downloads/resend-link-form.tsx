import type { ReactNode } from "react";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import { useI18n, useServerText } from "../../lib/i18n";

/** What the server answered the resend form with, shown when it renders the page again. */
export interface ResendAnswer {
  email: string;
  problem?: string;
  sent?: string;
}

/**
 * Asks for a fresh download link by email, as a plain form: the server sends the link only ever to
 * the email the product was bought with, answers the same whether or not that email bought it, and
 * renders the page again with `answer`.
 */
export function ResendLinkForm({
  action,
  id,
  answer,
  description,
}: {
  action: string;
  /** Unique on the page: the fields' ids start with it. */
  id: string;
  answer?: ResendAnswer | undefined;
  description?: ReactNode;
}) {
  const { t } = useI18n();
  const serverText = useServerText();
  return (
    <form method="post" action={action} noValidate className="space-y-3 text-left">
      {description}
      <div className="space-y-1.5">
        <label htmlFor={`${id}-email`} className="text-sm font-medium text-ink">
          {t("resend.emailLabel")}
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
            {serverText(answer.problem)}
          </p>
        )}
      </div>
      <Button type="submit" className="w-full">
        {t("resend.submit")}
      </Button>
      {answer?.sent && (
        <p role="status" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {serverText(answer.sent)}
        </p>
      )}
    </form>
  );
}
