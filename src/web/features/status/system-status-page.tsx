import { format } from "date-fns";
import { Bug, CreditCard, Database, HardDrive, KeyRound, Trash2 } from "lucide-react";
import { PageShell } from "../../components/layout/page-shell";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { ERROR_TYPE_LABELS, type ErrorLogEntry } from "../../lib/error-log";
import { ServiceRow } from "./service-row";
import { useErrorLog } from "./use-error-log";

const RECENT_COUNT = 10;

const SERVICES = [
  { name: "Authentication", icon: KeyRound },
  { name: "Database", icon: Database },
  { name: "File Storage", icon: HardDrive },
  { name: "Payment Processing", icon: CreditCard },
] as const;

function formatTime(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : format(date, "MMM d, yyyy HH:mm:ss");
}

function ErrorItem({ entry }: { entry: ErrorLogEntry }) {
  const showUrl = entry.url && entry.url !== window.location.href;
  return (
    <li className="px-5 py-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge tone="danger">{ERROR_TYPE_LABELS[entry.type] ?? entry.type}</Badge>
        <time dateTime={entry.timestamp} className="text-xs text-muted">
          {formatTime(entry.timestamp)}
        </time>
      </div>
      {/* A message or URL may be one long unbroken string: it wraps anywhere rather than widen the page. */}
      <p className="mt-2 font-mono text-sm [overflow-wrap:anywhere] text-ink">{entry.message}</p>
      {showUrl && <p className="mt-1 text-xs [overflow-wrap:anywhere] text-muted">on {entry.url}</p>}
    </li>
  );
}

export function SystemStatusPage() {
  const { entries, clear, checkedAt } = useErrorLog();
  const recent = entries.slice(0, RECENT_COUNT);

  return (
    <PageShell>
      <section className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">System Monitor</h1>
            <p className="mt-3 text-muted">Errors recorded in this browser, refreshed every 5 seconds.</p>
          </div>
          <Button variant="secondary" onClick={clear} disabled={entries.length === 0}>
            <Trash2 aria-hidden="true" />
            Clear All Errors
          </Button>
        </div>

        <div className="mt-10 grid grid-cols-1 gap-6 md:grid-cols-[22rem_minmax(0,1fr)]">
          <div className="flex min-w-0 flex-col gap-6">
            <Card>
              <CardHeader>
                <CardDescription>Recorded errors</CardDescription>
                <p className="text-4xl font-bold tracking-tight text-ink" data-testid="error-count">
                  {entries.length}
                </p>
              </CardHeader>
              <CardContent className="pt-2 text-xs text-muted">
                Last checked {format(checkedAt, "HH:mm:ss")}
              </CardContent>
            </Card>
            <Card>
              <CardHeader className="pb-2">
                <CardTitle className="text-base">Services</CardTitle>
              </CardHeader>
              <ul className="divide-y divide-line">
                {SERVICES.map(({ name, icon }) => (
                  <ServiceRow key={name} name={name} icon={icon} up compact />
                ))}
              </ul>
            </Card>
          </div>

          <Card className="min-w-0">
            <CardHeader className="pb-4">
              <CardTitle className="text-base">Recent errors</CardTitle>
              <CardDescription>The {RECENT_COUNT} most recent, newest first.</CardDescription>
            </CardHeader>
            {recent.length === 0 ? (
              <div className="flex flex-col items-center px-6 py-12 text-center">
                <Bug className="size-8 text-slate-300" aria-hidden="true" />
                <p className="mt-3 text-sm text-muted">No errors recorded. All clear.</p>
              </div>
            ) : (
              <ul className="divide-y divide-line border-t border-line">
                {recent.map((entry, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list without item state, whose entries can repeat exactly
                  <ErrorItem key={`${index}-${entry.timestamp}`} entry={entry} />
                ))}
              </ul>
            )}
          </Card>
        </div>
      </section>
    </PageShell>
  );
}
