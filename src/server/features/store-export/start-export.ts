import { randomUUID } from "node:crypto";
import { STORE_EXPORT_MESSAGES, type StoreExportState } from "../../../contracts/store-export";
import { isUniqueViolation } from "../../db/unique-violation";
import { AppError } from "../../http/errors";
import { enqueueBuild } from "./build-export";
import { dailyAllowance, storeExportState } from "./export-state";
import type { StoreExportDeps } from "./store-export-deps";

/**
 * POST /api/store-export: a new export, queued with its job in one transaction; answers the new state. Deliberately not gated
 * by the plan or by enforcement: a creator whose plan lapsed or whose store is restricted or suspended
 * may always take their store with them. At most one is queued or building (the partial unique index
 * settles two requests at once), and `perDay` start within 24 hours (failed ones do not count).
 */
export async function startStoreExport(
  deps: Pick<StoreExportDeps, "db" | "appUrl" | "linkKey">,
  sellerId: string,
  now: Date,
): Promise<StoreExportState> {
  try {
    await deps.db.transaction().execute(async (trx) => {
      const allowance = await dailyAllowance(trx, sellerId, now);
      if (allowance.active) throw inProgress();
      if (allowance.nextAllowedAt) {
        throw new AppError("export_limit", 429, STORE_EXPORT_MESSAGES.dailyLimit, {
          nextAllowedAt: allowance.nextAllowedAt.toISOString(),
        });
      }
      const id = `exp_${randomUUID().replaceAll("-", "")}`;
      await trx.insertInto("store_exports").values({ id, seller_id: sellerId, created_at: now }).execute();
      await enqueueBuild(trx, id);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw inProgress();
    throw error;
  }
  return storeExportState(deps, sellerId, now);
}

const inProgress = () => new AppError("export_in_progress", 409, STORE_EXPORT_MESSAGES.alreadyBuilding);
