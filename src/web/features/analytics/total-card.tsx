import { Card } from "../../components/ui/card";

/**
 * One figure of the analytics page: its name, its value (with an optional `detail` beside it), and
 * under it the change against the period before, or a `note` saying what it counts.
 */
export function TotalCard({
  title,
  value,
  detail,
  change = null,
  compareLabel = "",
  note,
}: {
  title: string;
  value: string;
  detail?: string | null | undefined;
  change?: string | null;
  compareLabel?: string;
  note?: string | undefined;
}) {
  const tone =
    change?.startsWith("+") || change === "New"
      ? "text-emerald-700"
      : change?.startsWith("−")
        ? "text-red-700"
        : "text-muted";
  return (
    <Card role="group" aria-label={title} className="min-w-0 p-4 sm:p-5">
      <p className="text-sm font-medium text-muted">{title}</p>
      <p className="mt-2 text-xl font-bold tracking-tight [overflow-wrap:anywhere] text-ink tabular-nums sm:text-2xl">
        {value}
        {detail && (
          <span className="ml-1.5 inline-block text-sm font-medium tracking-normal text-muted">{detail}</span>
        )}
      </p>
      {change && (
        <p className={`mt-1 text-xs font-medium ${tone}`}>
          {change} <span className="font-normal text-muted">{compareLabel}</span>
        </p>
      )}
      {note && <p className="mt-1 text-xs text-muted">{note}</p>}
    </Card>
  );
}
