import { useCallback, useEffect, useState } from "react";
import {
  clearErrorLog,
  ERROR_LOG_EVENT,
  ERROR_LOG_KEY,
  type ErrorLogEntry,
  readErrorLog,
} from "../../lib/error-log";

export const MONITOR_REFRESH_MS = 5_000;

/** The local error log, re-read every 5 seconds and whenever it changes (in this tab or another). */
export function useErrorLog(): { entries: ErrorLogEntry[]; clear: () => void; checkedAt: Date } {
  const [entries, setEntries] = useState(() => readErrorLog(window.localStorage));
  const [checkedAt, setCheckedAt] = useState(() => new Date());

  const reload = useCallback(() => {
    setEntries(readErrorLog(window.localStorage));
    setCheckedAt(new Date());
  }, []);

  useEffect(() => {
    const timer = window.setInterval(reload, MONITOR_REFRESH_MS);
    const onStorage = (event: StorageEvent) => {
      if (event.key === ERROR_LOG_KEY || event.key === null) reload();
    };
    window.addEventListener(ERROR_LOG_EVENT, reload);
    window.addEventListener("storage", onStorage);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener(ERROR_LOG_EVENT, reload);
      window.removeEventListener("storage", onStorage);
    };
  }, [reload]);

  const clear = useCallback(() => {
    clearErrorLog(window.localStorage);
    reload();
  }, [reload]);

  return { entries, clear, checkedAt };
}
