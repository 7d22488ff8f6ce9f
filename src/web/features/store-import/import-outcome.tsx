import { CheckCircle2, CircleAlert, RotateCcw } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { IMPORT_PLATFORM_NAMES, type StoreImport } from "../../../contracts/store-import";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Progress } from "../../components/ui/progress";
import { Spinner } from "../../components/ui/spinner";
import { ApiError } from "../../lib/api";
import { StatGrid } from "./dry-run-report";
import { ImportFileList } from "./export-files-step";
import { useCreateImport, useRunImport } from "./store-import-api";
import { progressPercent } from "./store-import-labels";

/** The dry run in the background: the page asks again every 1.5 s. */
export function ImportChecking({ files }: { files: StoreImport["files"] }) {
  return (
    <Card>
      <CardHeader className="flex-row items-center gap-3 pb-6">
        <Spinner label="Checking your files" />
        <div className="space-y-1">
          <CardTitle>Checking your files…</CardTitle>
          <CardDescription>
            We read every row without importing anything. Large exports take a minute; you can leave this
            page.
          </CardDescription>
        </div>
      </CardHeader>
      <div className="p-6 pt-0">
        <ImportFileList files={files} />
      </div>
    </Card>
  );
}

/** The run, batch after batch: its records done of all. */
export function ImportRunning({ progress }: { progress: StoreImport["progress"] }) {
  const percent = progressPercent(progress);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Importing…</CardTitle>
        <CardDescription>
          It carries on if you leave this page. Buyers get their email (if you chose it) once everything is
          in.
        </CardDescription>
      </CardHeader>
      <div className="space-y-2 p-6 pt-4">
        <Progress value={percent} label="Import progress" />
        <p className="text-sm text-muted tabular-nums" aria-live="polite">
          {progress.done.toLocaleString("en-US")} of {progress.total.toLocaleString("en-US")} records (
          {percent}%)
        </p>
      </div>
    </Card>
  );
}

function resultLines(storeImport: StoreImport): Array<{ label: string; value: number }> {
  const result = storeImport.result;
  if (!result) return [];
  return [
    { label: "Products created", value: result.products },
    { label: "Past orders", value: result.orders },
    { label: "License keys", value: result.licenseKeys },
    { label: "Unsubscribes kept", value: result.unsubscribes },
    { label: "Members to re-subscribe", value: result.resubscribes },
    { label: "Skipped", value: result.skipped },
    { label: "Already imported", value: result.alreadyImported },
    ...(storeImport.notifyBuyers ? [{ label: "Buyers emailed", value: result.buyersEmailed }] : []),
  ];
}

/** Done: what the run made, and where to see it. */
export function ImportDone({ storeImport }: { storeImport: StoreImport }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CheckCircle2 className="size-5 text-emerald-600" aria-hidden="true" />
          Your {IMPORT_PLATFORM_NAMES[storeImport.platform]} store is here
        </CardTitle>
        <CardDescription>
          Imported buyers find their purchases in their library, signing in with the email they bought with.
          {storeImport.notifyBuyers ? " Their emails go out in batches over the next minutes." : ""}
        </CardDescription>
      </CardHeader>
      <div className="p-6 pt-4">
        <StatGrid stats={resultLines(storeImport)} />
      </div>
      <div className="flex flex-col gap-3 p-6 pt-0 sm:flex-row">
        <Button asChild>
          <Link to="/dashboard">See your products and sales</Link>
        </Button>
        <Button asChild variant="secondary">
          <Link to="/dashboard/customers">See your customers</Link>
        </Button>
        {storeImport.result && storeImport.result.resubscribes > 0 && (
          // Their payment methods stay with the platform: the creator invites them to subscribe again here.
          <Button asChild variant="secondary">
            <a href={`/api/store-imports/${encodeURIComponent(storeImport.id)}/resubscribes.csv`} download>
              Members to invite (CSV)
            </a>
          </Button>
        )}
      </div>
    </Card>
  );
}

/**
 * Failed: the reason, and the way on: a run that stopped part way resumes where it stopped; a dry run
 * that could not read its files needs a new import.
 */
export function ImportFailed({ userId, storeImport }: { userId: string; storeImport: StoreImport }) {
  const navigate = useNavigate();
  const create = useCreateImport(userId);
  const resume = useRunImport(userId, storeImport.id);
  const resumable = storeImport.report !== null && storeImport.progress.total > 0;
  return (
    <Card className="border-red-200">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CircleAlert className="size-5 text-red-600" aria-hidden="true" />
          The import stopped
        </CardTitle>
        <CardDescription className="text-red-800">
          {storeImport.error ?? "It stopped on an unexpected error."}
        </CardDescription>
      </CardHeader>
      <div className="space-y-3 p-6 pt-4">
        <p className="text-sm text-muted">
          {resumable
            ? "Resume it: it goes on after the last records it saved, and never makes anything twice."
            : "Its files could not be read to the end. Start a new import, and export again any file that fails again."}
        </p>
        {resume.error && (
          <p role="alert" className="text-sm text-red-700">
            {resume.error instanceof ApiError ? resume.error.message : "Couldn't resume the import."}
          </p>
        )}
        {create.error && (
          <p role="alert" className="text-sm text-red-700">
            {create.error instanceof ApiError ? create.error.message : "Couldn't start a new import."}
          </p>
        )}
        {resumable && (
          <Button disabled={resume.isPending} onClick={() => resume.mutate(storeImport.notifyBuyers)}>
            <RotateCcw aria-hidden="true" />
            Resume the import
          </Button>
        )}
        <Button
          variant={resumable ? "secondary" : "primary"}
          disabled={create.isPending}
          onClick={() =>
            create.mutate(storeImport.platform, {
              onSuccess: (started) => navigate(`/settings/import/${encodeURIComponent(started.id)}`),
            })
          }
        >
          <RotateCcw aria-hidden="true" />
          Start a new import
        </Button>
      </div>
    </Card>
  );
}
