import { Download } from "lucide-react";
import type { ButtonProps } from "../../components/ui/button";
import { Button } from "../../components/ui/button";
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
  label = "Download",
  onStarted,
  onRefused,
  disabled,
  ...props
}: DownloadButtonProps) {
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
      {isPending ? "Preparing..." : label}
    </Button>
  );
}
