import { z } from "zod";

/** What the server pushes to a signed-in seller's browser over /api/events (Server-Sent Events). */
export const realtimeEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("subscription.changed") }),
  z.object({ type: z.literal("payouts.changed") }),
  z.object({ type: z.literal("sales.changed") }),
  z.object({ type: z.literal("tax.changed") }),
]);
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;
