import type { Feature } from "../feature";
import { registerDevMailbox } from "./routes";

/** /dev/mailbox: every sent email, in the fully local setup only. */
export const devMailboxFeature: Feature = {
  name: "dev-mailbox",
  register: ({ server, db, devMailbox }) => {
    if (devMailbox) registerDevMailbox(server, { db });
  },
};
