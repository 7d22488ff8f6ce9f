import type { Feature } from "../feature";
import { registerRealtimeRoutes } from "./routes";

/** The seller's live event stream. */
export const realtimeFeature: Feature = {
  name: "realtime",
  register: ({ server, auth, events }) => registerRealtimeRoutes(server, { auth, events }),
};
