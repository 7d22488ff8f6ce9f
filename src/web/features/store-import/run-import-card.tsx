import { Mail, Play, TriangleAlert } from "lucide-react";
import { useId, useState } from "react";
import type { ImportReport } from "../../../contracts/store-import";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { ApiError } from "../../lib/api";
import { EmailPreviewDialog } from "./email-preview-dialog";
import { useRunImport } from "./store-import-api";
import { counted } from "./store-import-labels";

/** What the run will leave out, said before it starts (products without files, in another currency). */
function leftOut(report: ImportReport): string[] {
  const needFiles = report.products.filter((product) => product.status === "needs-files").length;
  const otherCurrency = report.products.filter((product) => product.status === "other-currency").length;
  return [
    needFiles > 0
      ? `${counted(needFiles, "product has", "products have")} no files yet: ${needFiles === 1 ? "it and its" : "they and their"} orders are left out.`
      : null,
    otherCurrency > 0
      ? `${counted(otherCurrency, "product is", "products are")} priced in another currency than your store's (${report.storeCurrency.toUpperCase()}): left out, with ${otherCurrency === 1 ? "its" : "their"} orders.`
      : null,
  ].filter((line): line is string => line !== null);
}

/** The last step before the run: whether the buyers hear of it (off unless chosen), then Run. */
export function RunImportCard({
  userId,
  importId,
  report,
}: {
  userId: string;
  importId: string;
  report: ImportReport;
}) {
  const id = useId();
  const [notifyBuyers, setNotifyBuyers] = useState(false);
  const [previewOpen, setPreviewOpen] = useState(false);
  const run = useRunImport(userId, importId);
  const warnings = leftOut(report);
  const buyers = report.counts.buyers;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Run the import</CardTitle>
        <CardDescription>
          Products, past orders, license keys and customers are created as the dry run says. Importing the
          same files again later never makes anything twice.
        </CardDescription>
      </CardHeader>
      <div className="space-y-4 p-6 pt-4">
        {warnings.length > 0 && (
          <ul className="space-y-1 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            {warnings.map((warning) => (
              <li key={warning} className="flex gap-2">
                <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span>{warning}</span>
              </li>
            ))}
          </ul>
        )}
        <div className="space-y-2 rounded-xl border border-line p-3">
          <label htmlFor={`${id}-notify`} className="flex cursor-pointer items-start gap-3 text-sm">
            <input
              id={`${id}-notify`}
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 accent-brand-600"
              checked={notifyBuyers}
              disabled={run.isPending}
              aria-describedby={`${id}-notify-note`}
              onChange={(event) => setNotifyBuyers(event.target.checked)}
            />
            <span className="min-w-0">
              <span className="block font-medium text-ink">Email my buyers that their purchases moved</span>
              <span id={`${id}-notify-note`} className="block text-xs text-muted">
                {buyers === 0
                  ? "No buyer of the new orders would get it."
                  : `${counted(buyers, "buyer", "buyers")} would get one email with a link to their library here. Buyers who unsubscribed don't.`}
              </span>
            </span>
          </label>
          <Button variant="link" size="sm" className="ml-7 h-auto" onClick={() => setPreviewOpen(true)}>
            <Mail aria-hidden="true" />
            Preview email
          </Button>
        </div>
        {run.error && (
          <p role="alert" className="text-sm text-red-700">
            {run.error instanceof ApiError ? run.error.message : "Couldn't start the import. Try again."}
          </p>
        )}
        <Button
          size="lg"
          className="w-full sm:w-auto"
          disabled={run.isPending}
          onClick={() => run.mutate(notifyBuyers)}
        >
          <Play aria-hidden="true" />
          Run the import
        </Button>
      </div>
      <EmailPreviewDialog
        userId={userId}
        importId={importId}
        open={previewOpen}
        onOpenChange={setPreviewOpen}
      />
    </Card>
  );
}
