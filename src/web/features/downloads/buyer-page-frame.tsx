import type { ReactNode } from "react";
import { PageShell } from "../../components/layout/page-shell";
import { BUYER_PAGE_CONTENT } from "./public-buyer-page-frame";

/**
 * The public frame of the buyer's pages in the app (the library), with the page's title; a translated
 * page offers the language switcher in the footer.
 */
export function BuyerPageFrame({
  title,
  children,
  languageSwitcher = false,
}: {
  title: string;
  children: ReactNode;
  languageSwitcher?: boolean;
}) {
  return (
    <PageShell languageSwitcher={languageSwitcher}>
      <title>{`${title} · Flatfee`}</title>
      <div className={BUYER_PAGE_CONTENT}>{children}</div>
    </PageShell>
  );
}
