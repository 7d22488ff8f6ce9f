import { type QueryClient, type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { type RealtimeEvent, realtimeEventSchema } from "../../contracts/realtime";
import { sellerKeys } from "./seller-status";

/** The cached queries each server event makes stale. */
export function queriesChangedBy(event: RealtimeEvent, userId: string): QueryKey[] {
  switch (event.type) {
    case "subscription.changed":
    case "payouts.changed":
      return [sellerKeys.status(userId)];
    case "sales.changed":
      return [sellerKeys.sales(userId), sellerKeys.stats(userId)];
    case "tax.changed":
      return [sellerKeys.tax(userId)];
  }
}

/** A message from /api/events, or null for anything we do not understand. */
export function parseRealtimeEvent(data: unknown): RealtimeEvent | null {
  if (typeof data !== "string") return null;
  try {
    const parsed = realtimeEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function invalidate(queryClient: QueryClient, keys: QueryKey[]): void {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

/**
 * One Server-Sent Events connection while a user is signed in: each event refreshes the queries it
 * concerns. EventSource reconnects by itself; after a reconnect everything of the seller is
 * refreshed, since events may have been missed in between.
 */
export function useRealtimeUpdates(userId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    const source = new EventSource("/api/events");
    let connectedBefore = false;
    source.onopen = () => {
      if (connectedBefore) invalidate(queryClient, [sellerKeys.all(userId)]);
      connectedBefore = true;
    };
    source.onmessage = (message) => {
      const event = parseRealtimeEvent(message.data);
      if (event) invalidate(queryClient, queriesChangedBy(event, userId));
    };
    return () => source.close();
  }, [userId, queryClient]);
}
