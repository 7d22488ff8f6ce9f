import type { ReactNode } from "react";
import { PageShell } from "../../components/layout/page-shell";

export type LegalSection = { title: string; body: ReactNode };

/** A long-form legal document with numbered sections. */
export function LegalPage({
  title,
  updated,
  intro,
  sections,
}: {
  title: string;
  updated: string;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  return (
    <PageShell>
      <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <header className="border-b border-line pb-8">
          <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">{title}</h1>
          <p className="mt-3 text-sm text-muted">Last updated {updated}</p>
          <div className="mt-6 leading-relaxed text-muted">{intro}</div>
        </header>
        <ol className="mt-10 space-y-10">
          {sections.map((section, index) => (
            <li key={section.title}>
              <section aria-labelledby={`section-${index + 1}`}>
                <h2 id={`section-${index + 1}`} className="text-xl font-semibold tracking-tight text-ink">
                  {index + 1}. {section.title}
                </h2>
                <div className="mt-3 space-y-3 leading-relaxed text-slate-700 [&_li]:ml-5 [&_li]:list-disc [&_li]:pl-1 [&_ul]:space-y-2">
                  {section.body}
                </div>
              </section>
            </li>
          ))}
        </ol>
      </article>
    </PageShell>
  );
}
