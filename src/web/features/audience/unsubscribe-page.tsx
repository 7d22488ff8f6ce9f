import { Ban, MailX } from "lucide-react";
import { type Creator, CreatorPageShell, useStoreName } from "../../components/layout/creator-page-shell";
import { Button } from "../../components/ui/button";
import { useI18n, useServerText } from "../../lib/i18n";

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
  const { t } = useI18n();
  const serverText = useServerText();
  const seller = useStoreName()(state.kind === "invalid" ? null : state.sellerName);
  return (
    <CreatorPageShell creator={creator} languageSwitcher>
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
              {t("unsubscribe.question", { seller })}
            </h1>
            <p className="mt-3 text-base leading-relaxed wrap-anywhere text-muted">
              {t("unsubscribe.willNoLonger", { email: state.email, seller })}
            </p>
            <form method="post" action={state.action} className="mt-8">
              <Button type="submit" size="lg">
                {t("unsubscribe.button")}
              </Button>
            </form>
          </>
        )}
        {state.kind === "done" && (
          <>
            <h1 className="mt-6 text-3xl font-bold tracking-tight text-ink">{t("unsubscribe.doneTitle")}</h1>
            <p role="status" className="mt-3 text-base leading-relaxed wrap-anywhere text-muted">
              {t("unsubscribe.done", { email: state.email, seller })}
            </p>
          </>
        )}
        {state.kind === "invalid" && (
          <>
            <h1 className="mt-6 text-3xl font-bold tracking-tight text-ink">{t("link.notWorking")}</h1>
            <p className="mt-3 text-base leading-relaxed text-muted">{serverText(state.message)}</p>
            <Button asChild variant="secondary" size="lg" className="mt-8">
              <a href="/">{t("unsubscribe.goHome")}</a>
            </Button>
          </>
        )}
      </section>
    </CreatorPageShell>
  );
}
