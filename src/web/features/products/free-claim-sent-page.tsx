import { MailCheck } from "lucide-react";
import type { PublicProduct } from "../../../contracts/products";
import { CreatorPageShell, creatorOf } from "../../components/layout/creator-page-shell";
import { Button } from "../../components/ui/button";
import { useI18n } from "../../lib/i18n";

/**
 * After "Email me the download": the link goes to the email only (so the address is proven by whoever
 * opens it), and this page says where to look. Rendered on the server, never cached.
 */
export function FreeClaimSentPage({ product, email }: { product: PublicProduct; email: string }) {
  const { t } = useI18n();
  return (
    <CreatorPageShell creator={creatorOf(product.seller)}>
      <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center sm:py-24">
        <span className="flex size-14 items-center justify-center rounded-full bg-emerald-50 text-emerald-700">
          <MailCheck className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-ink">{t("free.sentTitle")}</h1>
        <p role="status" className="mt-3 text-base leading-relaxed break-words text-muted">
          {t("free.sent", { email })}
        </p>
        <p className="mt-2 text-sm text-muted">{product.title}</p>
        <Button asChild variant="secondary" size="lg" className="mt-8">
          <a href={`/product/${product.id}`}>{t("free.backToProduct")}</a>
        </Button>
      </section>
    </CreatorPageShell>
  );
}
