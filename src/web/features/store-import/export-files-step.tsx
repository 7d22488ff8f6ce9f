import { FileSpreadsheet, LoaderCircle, Trash2, TriangleAlert, X } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import {
  IMPORT_PLATFORM_NAMES,
  STORE_IMPORT_LIMITS,
  STORE_IMPORT_MESSAGES,
  type StoreImport,
} from "../../../contracts/store-import";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FileDropZone } from "../../components/ui/file-drop-zone";
import { Progress } from "../../components/ui/progress";
import { ApiError } from "../../lib/api";
import { formatBytes } from "../../lib/format-bytes";
import { describeProgress, type UploadProgress } from "../uploads/upload-progress";
import { ExportFileRefused, uploadExportFile } from "./export-file-upload";
import { useCheckImport, useRefreshImport, useRemoveImportFile } from "./store-import-api";
import { platformFilesHint } from "./store-import-labels";

/** A file chosen here and not (yet) in the import: waiting, on its way, or refused with the server's words. */
type PendingFile = {
  key: string;
  file: File;
  state: "waiting" | "uploading" | "refused";
  progress?: UploadProgress;
  message?: string;
};

let nextKey = 0;

/**
 * What the server would refuse before a byte is sent: an empty or too large file, one too many (a
 * Flatfee import takes one archive of up to 50 GB).
 */
function refusedBeforeSending(file: File, filesSoFar: number, archive: boolean): string | null {
  if (file.size === 0) return STORE_IMPORT_MESSAGES.emptyFile;
  if (archive) {
    if (file.size > STORE_IMPORT_LIMITS.maxArchiveBytes) return STORE_IMPORT_MESSAGES.archiveTooLarge;
    if (filesSoFar >= 1) return STORE_IMPORT_MESSAGES.oneArchive;
    return null;
  }
  if (file.size > STORE_IMPORT_LIMITS.maxFileBytes) return STORE_IMPORT_MESSAGES.fileTooLarge;
  if (filesSoFar >= STORE_IMPORT_LIMITS.maxFiles) return STORE_IMPORT_MESSAGES.tooManyFiles;
  return null;
}

/**
 * The files, sent one after the other (the import numbers them in the order they arrive): each refused
 * one stays in the list with the server's reason until dismissed.
 */
function useExportUploads(userId: string, importId: string, filesInImport: number, archive: boolean) {
  const refresh = useRefreshImport(userId, importId);
  const [pending, setPending] = useState<PendingFile[]>([]);
  const queue = useRef<PendingFile[]>([]);
  const running = useRef(false);
  const abort = useRef(new AbortController());
  const counted = useRef(filesInImport);
  counted.current = filesInImport;

  useEffect(() => {
    const controller = new AbortController();
    abort.current = controller;
    return () => controller.abort();
  }, []);

  const update = useCallback(
    (key: string, change: Partial<PendingFile>) =>
      setPending((all) => all.map((item) => (item.key === key ? { ...item, ...change } : item))),
    [],
  );
  const drop = useCallback((key: string) => setPending((all) => all.filter((item) => item.key !== key)), []);

  const pump = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    try {
      for (let next = queue.current.shift(); next; next = queue.current.shift()) {
        const { key, file } = next;
        if (abort.current.signal.aborted) break;
        const local = refusedBeforeSending(file, counted.current, archive);
        if (local) {
          update(key, { state: "refused", message: local });
          continue;
        }
        update(key, { state: "uploading" });
        try {
          await uploadExportFile(importId, file, {
            signal: abort.current.signal,
            onProgress: (progress) => update(key, { progress }),
          });
          counted.current++;
          await refresh();
          drop(key);
        } catch (error) {
          if (error instanceof DOMException && error.name === "AbortError") break;
          update(key, {
            state: "refused",
            message:
              error instanceof ExportFileRefused ? error.message : "The file didn't arrive. Try again.",
          });
        }
      }
    } finally {
      running.current = false;
    }
  }, [importId, archive, refresh, update, drop]);

  const add = useCallback(
    (file: File) => {
      const item: PendingFile = { key: `export-${++nextKey}`, file, state: "waiting" };
      queue.current.push(item);
      setPending((all) => [...all, item]);
      void pump();
    },
    [pump],
  );

  const busy = pending.some((item) => item.state !== "refused");
  return { pending, add, dismiss: drop, busy };
}

function FileIcon({ tone }: { tone: "brand" | "danger" }) {
  return (
    <span
      className={
        tone === "brand"
          ? "flex size-9 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-600"
          : "flex size-9 shrink-0 items-center justify-center rounded-lg bg-red-50 text-red-600"
      }
    >
      {tone === "brand" ? (
        <FileSpreadsheet className="size-4" aria-hidden="true" />
      ) : (
        <TriangleAlert className="size-4" aria-hidden="true" />
      )}
    </span>
  );
}

/** The import's files: what each was recognised as; removable while the import still collects them. */
export function ImportFileList({
  files,
  onRemove,
  removing,
}: {
  files: StoreImport["files"];
  onRemove?: (fileId: string) => void;
  removing?: string | undefined;
}) {
  if (files.length === 0) return null;
  return (
    <ul className="space-y-2" aria-label="Export files">
      {files.map((file) => (
        <li key={file.id} className="flex items-center gap-3 rounded-xl border border-line bg-white p-3">
          <FileIcon tone="brand" />
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-ink" title={file.name}>
              {file.name}
            </p>
            <p className="text-xs text-muted">
              {file.reader} · <span className="whitespace-nowrap">{formatBytes(file.sizeBytes)}</span>
            </p>
          </div>
          {onRemove && (
            <Button
              variant="ghost"
              size="icon"
              disabled={removing === file.id}
              onClick={() => onRemove(file.id)}
            >
              {removing === file.id ? (
                <LoaderCircle className="animate-spin" aria-hidden="true" />
              ) : (
                <Trash2 aria-hidden="true" />
              )}
              <span className="sr-only">Remove {file.name}</span>
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

function PendingFileRow({ item, onDismiss }: { item: PendingFile; onDismiss: () => void }) {
  const messageId = `${item.key}-message`;
  return (
    <li
      className={
        item.state === "refused"
          ? "flex items-start gap-3 rounded-xl border border-red-200 bg-red-50/60 p-3"
          : "flex items-center gap-3 rounded-xl border border-line bg-white p-3"
      }
    >
      <FileIcon tone={item.state === "refused" ? "danger" : "brand"} />
      <div className="min-w-0 flex-1 space-y-1">
        <p className="truncate text-sm font-medium text-ink" title={item.file.name}>
          {item.file.name}
        </p>
        {item.state === "refused" ? (
          <p id={messageId} className="text-sm text-red-700">
            {item.message}
          </p>
        ) : item.state === "waiting" ? (
          <p className="text-xs text-muted">Waiting · {formatBytes(item.file.size)}</p>
        ) : (
          <>
            <Progress value={item.progress?.percent ?? 0} label={`Uploading ${item.file.name}`} />
            <p className="text-xs text-muted tabular-nums">
              {item.progress && item.progress.percent === 100
                ? "Recognising the file…"
                : item.progress
                  ? describeProgress(item.progress)
                  : "Starting…"}
            </p>
          </>
        )}
      </div>
      {item.state === "refused" && (
        <Button variant="ghost" size="icon" onClick={onDismiss}>
          <X aria-hidden="true" />
          <span className="sr-only">Dismiss {item.file.name}</span>
        </Button>
      )}
    </li>
  );
}

/** Step 2: the platform's export files, then the dry run. */
export function ExportFilesStep({ userId, storeImport }: { userId: string; storeImport: StoreImport }) {
  const id = useId();
  const archive = storeImport.platform === "flatfee";
  const uploads = useExportUploads(userId, storeImport.id, storeImport.files.length, archive);
  const remove = useRemoveImportFile(userId, storeImport.id);
  const check = useCheckImport(userId, storeImport.id);
  const platform = IMPORT_PLATFORM_NAMES[storeImport.platform];
  const problem =
    check.error instanceof ApiError
      ? check.error.message
      : remove.error instanceof ApiError
        ? remove.error.message
        : null;
  const full = storeImport.files.length >= (archive ? 1 : STORE_IMPORT_LIMITS.maxFiles);
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          {archive ? "Add your Flatfee store archive" : `Add your ${platform} export files`}
        </CardTitle>
        <CardDescription>{platformFilesHint(storeImport.platform)}</CardDescription>
      </CardHeader>
      <div className="space-y-4 p-6 pt-4">
        <ImportFileList
          files={storeImport.files}
          onRemove={(fileId) => remove.mutate(fileId)}
          removing={remove.isPending ? remove.variables : undefined}
        />
        {uploads.pending.length > 0 && (
          <ul className="space-y-2" aria-label="Files being added">
            {uploads.pending.map((item) => (
              <PendingFileRow key={item.key} item={item} onDismiss={() => uploads.dismiss(item.key)} />
            ))}
          </ul>
        )}
        <FileDropZone
          id={`${id}-files`}
          multiple={!archive}
          accept={archive ? ".zip,application/zip" : ".csv,.json,text/csv,application/json"}
          onFile={uploads.add}
          disabled={full}
          hint={
            archive
              ? full
                ? STORE_IMPORT_MESSAGES.oneArchive
                : "The ZIP file, up to 50 GB"
              : full
                ? STORE_IMPORT_MESSAGES.tooManyFiles
                : `CSV or JSON, up to 512 MB each, ${STORE_IMPORT_LIMITS.maxFiles} files at most`
          }
        />
        {problem && (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        )}
        <div className="flex flex-col gap-3 border-t border-line pt-4 sm:flex-row sm:items-center">
          <Button
            disabled={storeImport.files.length === 0 || uploads.busy || check.isPending}
            onClick={() => check.mutate()}
          >
            Check the import
          </Button>
          <p className="text-xs text-muted">
            A dry run: we read every row and show what the import would create. Nothing is imported yet.
          </p>
        </div>
      </div>
    </Card>
  );
}
