import { Ban, ShoppingCart } from "lucide-react";
import { type Creator, CreatorPageShell } from "../../components/layout/creator-page-shell";
import { Button } from "../../components/ui/button";
import { useI18n, useServerText } from "../../lib/i18n";

export type RecoveryState =
  | {
      kind: "ready";
      productTitle: string;
      amountCents: number;
      currency: string;
      /** The form's address: POST makes the fresh checkout and redirects to it. */
      action: string;
      /** Why the last try failed (sold out, too many checkouts), as the server said it. */
      error?: string;
    }
  | { kind: "invalid" | "expired" | "unavailable"; storeHref: string | null };

/**
 * A checkout recovery link (docs/checkout-recovery.md), opened from the one reminder email: the product
 * the buyer left and its price, and a plain form to a fresh checkout (a link opened by a mail scanner
 * makes no checkout and holds nothing). Rendered on the server, never cached.
 */
export function RecoveryPage({ state, creator }: { state: RecoveryState; creator: Creator | null }) {
  const { t, money } = useI18n();
  const serverText = useServerText();
  return (
    <CreatorPageShell creator={creator} languageSwitcher>
      <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center sm:py-24">
        <span className="flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          {state.kind === "ready" ? (
            <ShoppingCart className="size-7" aria-hidden="true" />
          ) : (
            <Ban className="size-7" aria-hidden="true" />
          )}
        </span>
        {state.kind === "ready" ? (
          <>
            <h1 className="mt-6 text-3xl font-bold tracking-tight wrap-anywhere text-ink">
              {t("recovery.heading", { product: state.productTitle })}
            </h1>
            <p className="mt-3 text-base leading-relaxed wrap-anywhere text-muted">
              {t("recovery.body", { price: money(state.amountCents, state.currency) })}
            </p>
            {state.error && (
              <p role="alert" className="mt-4 text-sm font-medium text-red-700">
                {serverText(state.error)}
              </p>
            )}
            <form method="post" action={state.action} className="mt-8">
              <Button type="submit" size="lg" data-testid="recovery-continue">
                {t("recovery.button")}
              </Button>
            </form>
          </>
        ) : (
          <>
            <h1 className="mt-6 text-3xl font-bold tracking-tight text-ink">
              {state.kind === "unavailable" ? t("recovery.unavailable") : t("link.notWorking")}
            </h1>
            {state.kind !== "unavailable" && (
              <p className="mt-3 text-base leading-relaxed text-muted">
                {t(state.kind === "expired" ? "recovery.expired" : "recovery.invalid")}
              </p>
            )}
            {state.storeHref && (
              <Button asChild variant="secondary" size="lg" className="mt-8">
                <a href={state.storeHref}>{t("recovery.visitStore")}</a>
              </Button>
            )}
          </>
        )}
      </section>
    </CreatorPageShell>
  );
}
