import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Link, useParams } from "react-router";
import { IMPORT_PLATFORM_NAMES, type StoreImport } from "../../../contracts/store-import";
import { AppShell } from "../../components/layout/app-shell";
import { Badge } from "../../components/ui/badge";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { ApiError } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";
import { RequireAuth } from "../auth/require-auth";
import { ReportFiles, ReportProblems, ReportSummary } from "./dry-run-report";
import { ExportFilesStep } from "./export-files-step";
import { ImportChecking, ImportDone, ImportFailed, ImportRunning } from "./import-outcome";
import { ImportProducts } from "./import-products";
import { ImportSteps } from "./import-steps";
import { PastImports } from "./past-imports";
import { PlatformChoice } from "./platform-choice";
import { RunImportCard } from "./run-import-card";
import { storeImportKeys, useStoreImport, useStoreImports } from "./store-import-api";
import { importDate, importStatusBadge } from "./store-import-labels";

/** The dry run, read before running: counts, files, products (and their files), the rows left out. */
function CheckedImport({ userId, storeImport }: { userId: string; storeImport: StoreImport }) {
  const report = storeImport.report;
  if (!report) return null;
  return (
    <>
      <ReportSummary report={report} />
      <ImportProducts
        userId={userId}
        importId={storeImport.id}
        report={report}
        archive={storeImport.platform === "flatfee"}
      />
      <ReportFiles files={report.files} />
      <ReportProblems
        title="Rows we can't import"
        description="These rows are skipped; fix them in the export and import it again to bring them."
        problems={report.problems}
        total={report.problemsTotal}
      />
      <ReportProblems
        title="Duplicates"
        description="Rows found more than once in the files: each is imported once."
        problems={report.duplicates}
        total={report.duplicatesTotal}
      />
      <RunImportCard userId={userId} importId={storeImport.id} report={report} />
    </>
  );
}

/** What the page shows of an import, by its state. */
function ImportState({ userId, storeImport }: { userId: string; storeImport: StoreImport }) {
  switch (storeImport.status) {
    case "collecting":
      return <ExportFilesStep userId={userId} storeImport={storeImport} />;
    case "checking":
      return <ImportChecking files={storeImport.files} />;
    case "checked":
      return <CheckedImport userId={userId} storeImport={storeImport} />;
    case "importing":
      return <ImportRunning progress={storeImport.progress} />;
    case "imported":
      return <ImportDone storeImport={storeImport} />;
    case "failed":
      return <ImportFailed userId={userId} storeImport={storeImport} />;
  }
}

/** One import's page: asked again while the server works on it; the seller's other pages refresh when it lands. */
function ImportView({ userId, importId }: { userId: string; importId: string }) {
  const queryClient = useQueryClient();
  const storeImport = useStoreImport(userId, importId);
  const status = storeImport.data?.status;
  const seen = useRef(status);
  useEffect(() => {
    if (seen.current === status) return;
    const before = seen.current;
    seen.current = status;
    if (!before) return;
    // A state the server reached on its own (checked, imported, failed): the list says it too.
    void queryClient.invalidateQueries({ queryKey: storeImportKeys.list(userId), exact: true });
    if (status === "imported") void queryClient.invalidateQueries({ queryKey: sellerKeys.all(userId) });
  }, [status, userId, queryClient]);

  if (storeImport.isPending) return <PageSpinner label="Loading the import" />;
  if (storeImport.isError) {
    if (storeImport.error instanceof ApiError && storeImport.error.status === 404)
      return (
        <p role="alert" className="rounded-xl border border-line bg-white p-4 text-sm text-ink">
          This import doesn't exist, or it was deleted.{" "}
          <Link to="/settings/import" className="font-medium text-brand-700 underline underline-offset-4">
            Start an import
          </Link>
        </p>
      );
    return <RetryNotice message="We couldn't load the import." onRetry={() => void storeImport.refetch()} />;
  }
  const badge = importStatusBadge(storeImport.data.status);
  return (
    <section className="space-y-6" aria-labelledby="import-heading">
      <div className="space-y-3">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <h2 id="import-heading" className="text-xl font-semibold tracking-tight text-ink">
            From {IMPORT_PLATFORM_NAMES[storeImport.data.platform]}
          </h2>
          <Badge tone={badge.tone}>{badge.label}</Badge>
          <span className="text-sm text-muted">Started {importDate(storeImport.data.createdAt)}</span>
        </div>
        <ImportSteps status={storeImport.data.status} hasReport={storeImport.data.report !== null} />
      </div>
      <ImportState userId={userId} storeImport={storeImport.data} />
    </section>
  );
}

function StoreImportContent({ userId }: { userId: string }) {
  const { importId } = useParams();
  const imports = useStoreImports(userId);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <p className="text-sm">
          <Link to="/settings" className="text-brand-700 underline-offset-4 hover:underline">
            Settings
          </Link>
        </p>
        <h1 className="text-3xl font-bold tracking-tight text-ink">Move your store here</h1>
        <p className="mt-1 text-sm text-muted">
          Bring your products, past orders, license keys and customers from Gumroad, Lemon Squeezy, Payhip,
          Polar or another Flatfee store. Your buyers keep what they bought: it waits in their library here.
        </p>
      </div>
      {imports.isError ? (
        <RetryNotice message="We couldn't load your imports." onRetry={() => void imports.refetch()} />
      ) : (
        imports.data && <PastImports imports={imports.data} {...(importId ? { currentId: importId } : {})} />
      )}
      {importId ? (
        <ImportView key={importId} userId={userId} importId={importId} />
      ) : (
        <>
          <ImportSteps />
          <PlatformChoice userId={userId} />
        </>
      )}
    </div>
  );
}

/** /settings/import and /settings/import/:importId: a creator brings a store from another platform. */
export function StoreImportPage() {
  return (
    <RequireAuth>
      {(user) => (
        <AppShell>
          <StoreImportContent userId={user.id} />
        </AppShell>
      )}
    </RequireAuth>
  );
}
