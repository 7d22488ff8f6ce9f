import type { ReactNode } from "react";
import { PageShell } from "../../components/layout/page-shell";
import { BUYER_PAGE_CONTENT } from "./public-buyer-page-frame";

/** The public frame of the buyer's pages in the app (the library), with the page's title. */
export function BuyerPageFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PageShell>
      <title>{`${title} · Flatfee`}</title>
      <div className={BUYER_PAGE_CONTENT}>{children}</div>
    </PageShell>
  );
}
