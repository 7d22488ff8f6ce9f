import { CircleSlash, Download, FileText } from "lucide-react";
import type { ReactNode } from "react";
import { PURCHASE_RULES, type PurchaseFile } from "../../../contracts/orders";
import { Button } from "../../components/ui/button";
import { formatBytes } from "../../lib/format-bytes";
import { useI18n } from "../../lib/i18n";

/** A file's name, size and downloads left, beside its own action. */
export function PurchaseFileRow({ file, action }: { file: PurchaseFile; action: ReactNode }) {
  const { t, locale } = useI18n();
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-line bg-white p-3 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-brand-50">
          <FileText className="size-4 text-brand-600" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <p className="text-sm font-medium wrap-anywhere text-ink">{file.name}</p>
          <p className="text-xs text-muted tabular-nums">
            {file.sizeBytes !== null ? `${formatBytes(file.sizeBytes, locale)} · ` : ""}
            {t("download.downloadsLeft", {
              remaining: file.downloadsRemaining,
              max: PURCHASE_RULES.maxDownloads,
            })}
          </p>
        </div>
      </div>
      <div className="shrink-0">{action}</div>
    </li>
  );
}

/** What a file whose 3 downloads are used shows instead of its button. */
export function FileUsedUp() {
  const { t } = useI18n();
  return (
    <p className="inline-flex items-center gap-1.5 text-sm text-muted">
      <CircleSlash className="size-4" aria-hidden="true" />
      {t("download.allUsed")}
    </p>
  );
}

/**
 * Every file of a purchase, each with its own download button: a form posting the file's id to the
 * download page (`/download/{token}`), which counts one of that file's 3 downloads and answers 303 to
 * the file. Works without JavaScript (server-rendered download and success pages).
 */
export function PurchaseFileForms({
  files,
  downloadPath,
  label,
}: {
  files: PurchaseFile[];
  downloadPath: string;
  /** The buttons' visible words, "Download" unless told (with several files, each names its file to screen readers). */
  label?: string;
}) {
  const { t } = useI18n();
  return (
    <ul className="space-y-2" aria-label={t("download.files")}>
      {files.map((file) => (
        <PurchaseFileRow
          key={file.id}
          file={file}
          action={
            file.downloadsRemaining > 0 ? (
              <form method="post" action={downloadPath}>
                <input type="hidden" name="file" value={file.id} />
                <Button
                  type="submit"
                  className="w-full sm:w-auto"
                  // One name in one string: a visually hidden part would be read after a space of its own.
                  aria-label={
                    files.length > 1
                      ? label
                        ? `${label} ${file.name}`
                        : t("download.buttonFor", { name: file.name })
                      : undefined
                  }
                >
                  <Download aria-hidden="true" />
                  {label ?? t("download.button")}
                </Button>
              </form>
            ) : (
              <FileUsedUp />
            )
          }
        />
      ))}
    </ul>
  );
}
