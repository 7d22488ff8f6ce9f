import type { ReactNode } from "react";
import { PageShell } from "../../components/layout/page-shell";

/** The public frame of the buyer's pages (success, download, library), with the page's title. */
export function BuyerPageFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PageShell>
      <title>{`${title} · Flatfee`}</title>
      <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-14">{children}</div>
    </PageShell>
  );
}
