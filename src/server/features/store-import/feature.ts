import { unsubscribeKey } from "../audience";
import type { Feature } from "../feature";
import { checkImportHandler, emailImportedBuyersHandler, runImportHandler } from "./import-lifecycle";
import { registerStoreImportRoutes } from "./routes";

/** Store imports (docs/store-import.md): a creator brings products, past orders, keys and customers from another platform. */
export const storeImportFeature: Feature = {
  name: "store-import",
  register: ({
    server,
    db,
    storage,
    stripe,
    events,
    auth,
    appUrl,
    now,
    jobs,
    orderChanges,
    outbox,
    linkKey,
    authSecret,
    virusScanner,
  }) => {
    registerStoreImportRoutes(server, {
      db,
      storage,
      auth,
      appUrl,
      now,
      ...(virusScanner ? { virusScanner } : {}),
    });
    jobs.register(checkImportHandler({ db, storage }));
    jobs.register(runImportHandler({ db, storage, stripe, events, orderChanges }));
    jobs.register(
      emailImportedBuyersHandler({ db, outbox, appUrl, linkKey, unsubscribeKey: unsubscribeKey(authSecret) }),
    );
  },
};
