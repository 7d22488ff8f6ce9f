import { Download } from "lucide-react";
import type { ButtonProps } from "../../components/ui/button";
import { Button } from "../../components/ui/button";
import { useI18n } from "../../lib/i18n";
import { tokenOfDownloadPath } from "./purchase-format";
import { useStartDownload } from "./use-start-download";

type DownloadButtonProps = Omit<ButtonProps, "onClick" | "children"> & {
  /** The purchase's download page path (`/download/{token}`). */
  downloadPath: string;
  /** Which of the purchase's files. */
  fileId: string;
  label?: string;
  onStarted?: (downloadsRemaining: number) => void;
  onRefused?: (reason: string) => void;
};

/** Starts one counted download of one file and opens it in a new tab. */
export function DownloadButton({
  downloadPath,
  fileId,
  label,
  onStarted,
  onRefused,
  disabled,
  ...props
}: DownloadButtonProps) {
  const { t } = useI18n();
  const { start, isPending } = useStartDownload({
    ...(onStarted ? { onStarted } : {}),
    ...(onRefused ? { onRefused } : {}),
  });
  const token = tokenOfDownloadPath(downloadPath);
  return (
    <Button
      {...props}
      disabled={disabled || isPending || !token}
      onClick={() => token && start(token, fileId)}
      aria-busy={isPending}
    >
      <Download aria-hidden="true" />
      {isPending ? t("download.preparing") : (label ?? t("download.button"))}
    </Button>
  );
}
