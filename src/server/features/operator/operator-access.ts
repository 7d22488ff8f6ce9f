import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import { OPERATOR_MESSAGES } from "../../../contracts/operator";
import type { DB } from "../../db/schema";
import { AppError, notFound } from "../../http/errors";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import type { Actor } from "./audit-log";

export interface OperatorAccessDeps {
  db: Kysely<DB>;
  auth: Auth;
}

/** Whether this user is an operator, and whether their account has two-factor authentication on. */
export async function operatorStanding(
  db: Kysely<DB>,
  userId: string,
): Promise<{ operator: boolean; twoFactor: boolean }> {
  const row = await db
    .selectFrom("user")
    .leftJoin("operators", "operators.user_id", "user.id")
    .select(["operators.user_id as operatorId", "user.twoFactorEnabled"])
    .where("user.id", "=", userId)
    .executeTakeFirst();
  return { operator: Boolean(row?.operatorId), twoFactor: row?.twoFactorEnabled === true };
}

/**
 * The signed-in operator, for every `/api/operator` route. Anyone else gets the same 404 as a path that
 * does not exist (a seller learns nothing of the console); an operator without two-factor
 * authentication gets 403 `two_factor_required` (with 2FA on, Better Auth's sign-in asked for the code).
 */
export async function requireOperator(deps: OperatorAccessDeps, request: FastifyRequest): Promise<Actor> {
  const user = await requireUser(deps.auth, request);
  const standing = await operatorStanding(deps.db, user.id);
  if (!standing.operator) throw notFound();
  if (!standing.twoFactor)
    throw new AppError("two_factor_required", 403, OPERATOR_MESSAGES.twoFactorRequired);
  return { id: user.id, email: user.email };
}
