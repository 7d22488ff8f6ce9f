import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { storefrontSchema } from "../../../contracts/products";
import { api, monitoredFetch } from "../../lib/api";

export function useStorefront(userId: string) {
  return useQuery({
    queryKey: ["public", "store", userId],
    queryFn: ({ signal }) =>
      api(`/api/public/stores/${encodeURIComponent(userId)}`, {
        schema: storefrontSchema,
        signal,
        quiet: true,
      }),
  });
}

/** Counts one view per store page load (the server records the user agent); failures are ignored. */
export function useRecordStoreView(userId: string): void {
  const recorded = useRef<string | null>(null);
  useEffect(() => {
    if (recorded.current === userId) return;
    recorded.current = userId;
    monitoredFetch(
      `/api/public/stores/${encodeURIComponent(userId)}/views`,
      { method: "POST" },
      { quiet: true },
    ).catch(() => undefined);
  }, [userId]);
}
