import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { PURCHASE_RULES } from "../../../contracts/orders";
import { isAlreadyReported } from "../../lib/already-reported";
import { hasCode } from "../../lib/api";
import { useI18n, useServerText } from "../../lib/i18n";
import { openPendingTab } from "../../lib/new-tab";
import { startDownload } from "./downloads-api";

type Callbacks = {
  /** The download started; the server says how many are left. */
  onStarted?: (downloadsRemaining: number) => void;
  /** The server refused (limit reached, refunded, window over): its message says why. */
  onRefused?: (reason: string) => void;
};

/**
 * Download Your File (product rules, States and transitions): logs a download, then opens the file in a new tab. The tab
 * opens on the click itself so popup blockers let it through, and follows once the URL arrives.
 */
export function useStartDownload({ onStarted, onRefused }: Callbacks = {}) {
  const { t } = useI18n();
  const serverText = useServerText();
  const { mutate, isPending } = useMutation({ mutationFn: startDownload });
  const start = (token: string, fileId: string) => {
    const tab = openPendingTab();
    mutate(
      { token, fileId },
      {
        onSuccess: ({ url, downloadsRemaining }) => {
          tab.open(url);
          toast.success(t("download.started"), {
            description: t("download.downloadsLeft", {
              remaining: downloadsRemaining,
              max: PURCHASE_RULES.maxDownloads,
            }),
          });
          onStarted?.(downloadsRemaining);
        },
        onError: (error) => {
          tab.close();
          if (isAlreadyReported(error)) return;
          toast.error(t("download.unavailable"), { description: serverText(error.message) });
          if (hasCode(error, "download_unavailable")) onRefused?.(error.message);
        },
      },
    );
  };
  return { start, isPending };
}
