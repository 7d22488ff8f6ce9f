import { unsubscribeKey } from "../audience";
import { checkoutDeps } from "../checkout";
import type { Feature } from "../feature";
import { loadPublicPageAssets } from "../public-pages";
import { recoveryKey } from "./recovery-link";
import { registerRecoveryRoutes } from "./routes";
import { sendRecoveryJobHandler } from "./send-recovery";

/**
 * Checkout recovery (docs/checkout-recovery.md): the email an hour after a checkout expired unpaid (its
 * scheduling is recoveryStep, in OrderChanges), the buyer's way back, the seller's switch.
 */
export const checkoutRecoveryFeature: Feature = {
  name: "checkout-recovery",
  register: async (context) => {
    const { server, db, outbox, appUrl, authSecret, auth, now, jobs, webDistDir } = context;
    const keys = { unsubscribeKey: unsubscribeKey(authSecret), recoveryKey: recoveryKey(authSecret) };
    jobs.register(sendRecoveryJobHandler({ db, outbox, appUrl, ...keys }));
    registerRecoveryRoutes(server, {
      db,
      auth,
      now,
      recoveryKey: keys.recoveryKey,
      assets: await loadPublicPageAssets(webDistDir),
      checkout: checkoutDeps(context),
    });
  },
};
