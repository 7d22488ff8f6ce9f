import { ChevronRight, Plus } from "lucide-react";
import { Link } from "react-router";
import { IMPORT_PLATFORM_NAMES } from "../../../contracts/store-import";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { cn } from "../../lib/utils";
import type { ImportListItem } from "./store-import-api";
import { importDate, importStatusBadge } from "./store-import-labels";

/** The seller's imports, newest first: each opens its own page (the open one is marked). */
export function PastImports({ imports, currentId }: { imports: ImportListItem[]; currentId?: string }) {
  if (imports.length === 0) return null;
  return (
    <Card className="overflow-hidden">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 pb-4">
        <div className="space-y-1.5">
          <CardTitle>Your imports</CardTitle>
          <CardDescription>
            Each import keeps its files and its report. Open one to see where it is.
          </CardDescription>
        </div>
        {currentId && (
          <Button asChild variant="secondary" size="sm">
            <Link to="/settings/import">
              <Plus aria-hidden="true" />
              New import
            </Link>
          </Button>
        )}
      </CardHeader>
      <ul className="divide-y divide-line border-t border-line" aria-label="Your imports">
        {imports.map((item) => {
          const badge = importStatusBadge(item.status);
          const current = item.id === currentId;
          return (
            <li key={item.id}>
              <Link
                to={`/settings/import/${encodeURIComponent(item.id)}`}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "flex items-center gap-3 px-6 py-3 text-sm transition-colors outline-none hover:bg-slate-50 focus-visible:bg-slate-50 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset",
                  current && "bg-brand-50/60",
                )}
              >
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-ink">
                    From {IMPORT_PLATFORM_NAMES[item.platform]}
                  </span>
                  <span className="block text-xs text-muted">
                    Started {importDate(item.createdAt)}
                    {item.finishedAt && (
                      <span className="hidden sm:inline"> · finished {importDate(item.finishedAt)}</span>
                    )}
                  </span>
                </span>
                <Badge tone={badge.tone}>{badge.label}</Badge>
                <ChevronRight className="size-4 shrink-0 text-muted" aria-hidden="true" />
              </Link>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
