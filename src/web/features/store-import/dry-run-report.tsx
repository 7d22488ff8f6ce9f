import { FileSpreadsheet } from "lucide-react";
import type { ImportReport } from "../../../contracts/store-import";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { counted, moreThanListed, problemLine, reportSummary } from "./store-import-labels";

/** Numbers with their labels: two columns on a phone, five on a wide screen. */
export function StatGrid({ stats }: { stats: Array<{ label: string; value: number }> }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 sm:grid-cols-5">
      {stats.map((stat) => (
        <div key={stat.label} className="flex flex-col-reverse justify-end gap-0.5 border-t border-line py-3">
          <dt className="text-xs text-muted">{stat.label}</dt>
          <dd className="text-lg font-semibold text-ink tabular-nums">
            {stat.value.toLocaleString("en-US")}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The counts: what the run creates, and what it finds already here. */
export function ReportSummary({ report }: { report: ImportReport }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>What the import will do</CardTitle>
        <CardDescription>
          The dry run of your files: nothing is imported yet. Read it, attach the products' files, then run
          it.
        </CardDescription>
      </CardHeader>
      <div className="p-6 pt-4">
        <StatGrid stats={reportSummary(report.counts)} />
      </div>
    </Card>
  );
}

/** Each file as read: its records, what its reader noted, and the columns it left out. */
export function ReportFiles({ files }: { files: ImportReport["files"] }) {
  if (files.length === 0) return null;
  return (
    <Card className="overflow-hidden">
      <CardHeader className="pb-4">
        <CardTitle>Files read</CardTitle>
      </CardHeader>
      <ul className="divide-y divide-line border-t border-line" aria-label="Files read">
        {files.map((file, index) => (
          // A file name may come twice (two pages of one API export saved under one name).
          // biome-ignore lint/suspicious/noArrayIndexKey: the report's order is the files' order
          <li key={`${file.name}-${index}`} className="flex gap-3 px-6 py-3">
            <FileSpreadsheet className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden="true" />
            <div className="min-w-0 flex-1 space-y-1 text-sm">
              <p className="truncate font-medium text-ink" title={file.name}>
                {file.name}
              </p>
              <p className="text-xs text-muted">
                {file.reader ? `${file.reader} · ` : ""}
                {counted(file.records, "record", "records")}
              </p>
              {file.notes.length > 0 && (
                <ul className="list-disc space-y-0.5 pl-4 text-xs text-muted">
                  {file.notes.map((note) => (
                    <li key={note}>{note}</li>
                  ))}
                </ul>
              )}
              {file.unknownColumns.length > 0 && (
                <p className="text-xs break-words text-amber-800">
                  Columns we don't know and left out: {file.unknownColumns.join(", ")}
                </p>
              )}
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** Rows the run cannot import, or imports once: listed one by one up to the report's cap, all counted. */
export function ReportProblems({
  title,
  description,
  problems,
  total,
}: {
  title: string;
  description: string;
  problems: ImportReport["problems"];
  total: number;
}) {
  if (total === 0) return null;
  const more = moreThanListed(problems.length, total);
  return (
    <Card className="overflow-hidden">
      <CardHeader className="pb-4">
        <CardTitle>
          {title}{" "}
          <span className="font-normal text-muted tabular-nums">({total.toLocaleString("en-US")})</span>
        </CardTitle>
        <CardDescription>
          {description}
          {more ? ` ${more}` : ""}
        </CardDescription>
      </CardHeader>
      <section
        aria-label={title}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: axe's scrollable-region-focusable: a box that scrolls must be reachable by keyboard.
        tabIndex={0}
        className="max-h-72 overflow-y-auto border-t border-line outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset"
      >
        <ul className="divide-y divide-line">
          {problems.map((problem, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the report's order; a line may carry two problems
            <li key={index} className="px-6 py-2 text-sm break-words text-ink">
              {problemLine(problem)}
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
}
