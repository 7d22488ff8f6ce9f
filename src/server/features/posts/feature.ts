import { unsubscribeKey } from "../audience";
import type { Feature } from "../feature";
import { queuePostEmailsJobHandler } from "./queue-post-emails";
import { registerPostRoutes } from "./routes";

/** Posts: a creator's posts to the members of chosen tiers, their emails (a batching job), a member's opt-out. */
export const postsFeature: Feature = {
  name: "posts",
  register: ({ server, db, auth, outbox, appUrl, authSecret, linkKey, now, jobs }) => {
    registerPostRoutes(server, { db, auth, linkKey, now });
    jobs.register(
      queuePostEmailsJobHandler({
        db,
        outbox,
        appUrl,
        unsubscribeKey: unsubscribeKey(authSecret),
        linkKey,
        now,
      }),
    );
  },
};
