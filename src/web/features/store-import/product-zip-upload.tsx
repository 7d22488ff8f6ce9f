import { FolderArchive, LoaderCircle } from "lucide-react";
import { useId, useState } from "react";
import {
  type ImportReport,
  PRODUCT_ZIP_MESSAGES,
  type ProductZipResult,
  STORE_IMPORT_LIMITS,
} from "../../../contracts/store-import";
import { buttonVariants } from "../../components/ui/button";
import { Progress } from "../../components/ui/progress";
import { cn } from "../../lib/utils";
import { describeProgress, type UploadProgress } from "../uploads/upload-progress";
import { ExportFileRefused, uploadProductZip } from "./export-file-upload";
import { useKeepImport } from "./store-import-api";
import { counted, productTakesFiles } from "./store-import-labels";

/** What the ZIP inputs take: a ZIP, by its name or type (the server checks its first bytes). */
export const ZIP_ACCEPT = ".zip,application/zip,application/x-zip-compressed";

export type ZipTarget = { externalId: string } | "all";

/** A ZIP being sent, then unpacked (the server answers once every file of it is checked and attached). */
export type ZipSending = { name: string; progress: UploadProgress | null };

/**
 * Sends a ZIP of products' files with its progress; the server's answer (the import, with each
 * product's files) is shown at once. Refusals come back as the server's words.
 */
export function useProductZipUpload(userId: string, importId: string) {
  const keep = useKeepImport(userId);
  const [sending, setSending] = useState<ZipSending | null>(null);
  const send = async (
    target: ZipTarget,
    file: File,
  ): Promise<{ result: ProductZipResult } | { refused: string }> => {
    if (file.size > STORE_IMPORT_LIMITS.maxZipBytes)
      return { refused: PRODUCT_ZIP_MESSAGES.tooLarge(file.name) };
    setSending({ name: file.name, progress: null });
    try {
      const result = await uploadProductZip(importId, target, file, {
        onProgress: (progress) => setSending({ name: file.name, progress }),
      });
      keep(result.import);
      return { result };
    } catch (error) {
      return {
        refused: error instanceof ExportFileRefused ? error.message : "The ZIP didn't arrive. Try again.",
      };
    } finally {
      setSending(null);
    }
  };
  return { sending, send };
}

/** A ZIP on its way: the upload's progress, then "Unpacking…" while the server checks each file. */
export function ZipProgress({ sending }: { sending: ZipSending }) {
  const unpacking = sending.progress?.percent === 100;
  return (
    <div className="space-y-1">
      <Progress value={sending.progress?.percent ?? 0} label={`Uploading ${sending.name}`} />
      <p className="truncate text-xs text-muted tabular-nums" aria-live="polite">
        {unpacking
          ? `Unpacking ${sending.name} and checking its files…`
          : sending.progress
            ? `Uploading ${sending.name}: ${describeProgress(sending.progress)}`
            : `Uploading ${sending.name}…`}
      </p>
    </div>
  );
}

/** A button-looking label for a hidden file input that takes one ZIP. */
export function ZipInput({
  id,
  label,
  srLabel,
  disabled,
  busy,
  describedBy,
  invalid,
  onZip,
}: {
  id: string;
  label: string;
  /** Said after the label to screen readers ("of Pixel Icons Pack"). */
  srLabel?: string;
  disabled: boolean;
  busy: boolean;
  describedBy?: string | undefined;
  invalid?: boolean;
  onZip: (file: File) => void;
}) {
  return (
    <div>
      <input
        id={id}
        type="file"
        accept={ZIP_ACCEPT}
        disabled={disabled}
        className="peer sr-only"
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          event.target.value = "";
          if (chosen) onZip(chosen);
        }}
      />
      <label
        htmlFor={id}
        className={cn(
          buttonVariants({ variant: "secondary", size: "sm" }),
          "cursor-pointer peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 peer-focus-visible:ring-offset-2 peer-disabled:pointer-events-none peer-disabled:opacity-50",
        )}
      >
        {busy ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : (
          <FolderArchive aria-hidden="true" />
        )}
        {label}
        {srLabel && <span className="sr-only"> {srLabel}</span>}
      </label>
    </div>
  );
}

/** What a ZIP for all products did: files per product, then what it left out and why. */
function StoreZipOutcome({ name, result }: { name: string; result: ProductZipResult }) {
  const files = result.attached.reduce((sum, product) => sum + product.files.length, 0);
  return (
    <div className="space-y-2 text-sm" role="status">
      <p className="text-ink">
        <span className="font-medium break-all">{name}</span>: {counted(files, "file", "files")} attached to{" "}
        {result.attached.map((product) => `${product.title} (${product.files.length})`).join(", ")}.
      </p>
      {(result.skippedFolders.length > 0 || result.looseFiles.length > 0) && (
        <div className="rounded-lg border border-amber-200 bg-amber-50/70 p-3">
          <p className="font-medium text-ink">Left out (nothing of these was kept):</p>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-ink" aria-label="Left out of the ZIP">
            {result.skippedFolders.map((skipped) => (
              <li key={skipped.folder} className="break-words">
                Folder <span className="font-medium">{skipped.folder}</span>: {skipped.reason}
              </li>
            ))}
            {result.looseFiles.map((file) => (
              <li key={file} className="break-words">
                <span className="font-medium">{file}</span>: not in a product's folder.
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/**
 * One ZIP for every product of the import: a folder per product at its top, named like the product (or
 * its id). Shown above the products when some still take files.
 */
export function StoreZipUpload({
  userId,
  importId,
  report,
}: {
  userId: string;
  importId: string;
  report: ImportReport;
}) {
  const id = useId();
  const upload = useProductZipUpload(userId, importId);
  const [outcome, setOutcome] = useState<
    { name: string; result: ProductZipResult } | { name: string; refused: string } | null
  >(null);
  const examples = report.products
    .filter(productTakesFiles)
    .slice(0, 2)
    .map((product) => product.title);
  if (examples.length === 0) return null;

  const add = async (file: File) => {
    setOutcome(null);
    const sent = await upload.send("all", file);
    setOutcome({ name: file.name, ...sent });
  };

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-3 border-t border-line bg-slate-50/60 px-4 py-4 sm:px-6"
    >
      <div className="space-y-1">
        <h3 id={`${id}-title`} className="text-sm font-semibold text-ink">
          All the files in one ZIP
        </h3>
        <p id={`${id}-hint`} className="text-sm text-muted">
          Put one folder per product at the top of the ZIP, named like the product or its id:{" "}
          {examples.map((title, index) => (
            <span key={title}>
              {index > 0 && ", "}
              <code className="rounded bg-white px-1 py-0.5 text-xs break-words text-ink ring-1 ring-line">
                {title}/
              </code>
            </span>
          ))}
          . Every file in a folder, subfolders included, goes to its product; other folders and loose files
          are left out. Up to 5 GB and {STORE_IMPORT_LIMITS.maxZipEntries} files; each file as any product
          file (up to 250 MB).
        </p>
      </div>
      {upload.sending ? (
        <ZipProgress sending={upload.sending} />
      ) : (
        <ZipInput
          id={`${id}-zip`}
          label="Upload one ZIP for all products"
          disabled={false}
          busy={false}
          describedBy={`${id}-hint${outcome && "refused" in outcome ? ` ${id}-problem` : ""}`}
          invalid={outcome !== null && "refused" in outcome}
          onZip={(file) => void add(file)}
        />
      )}
      {outcome &&
        ("refused" in outcome ? (
          <p id={`${id}-problem`} role="alert" className="text-sm break-words text-red-700">
            {outcome.refused}
          </p>
        ) : (
          <StoreZipOutcome name={outcome.name} result={outcome.result} />
        ))}
    </section>
  );
}
