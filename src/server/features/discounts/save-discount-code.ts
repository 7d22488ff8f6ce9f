import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import {
  DISCOUNT_LIMITS,
  DISCOUNT_MESSAGES,
  type DiscountCode,
  type DiscountCodeFields,
  type DiscountCodeRule,
  type DiscountCodeUpdate,
  discountCodeInputSchema,
} from "../../../contracts/discounts";
import { minorToDecimal } from "../../../contracts/money";
import { type Database, inTransaction } from "../../db/database";
import type { DiscountCodeTable } from "../../db/schema";
import { isUniqueViolation } from "../../db/unique-violation";
import { AppError, notFound } from "../../http/errors";
import { assertHasActivePlan } from "../billing";
import { storeCurrencyOf } from "../store-currency";
import { listDiscountCodes } from "./list-discount-codes";

const newCodeId = () => `dc_${randomBytes(10).toString("base64url")}`;

/**
 * A refusal of the form, naming its field: the page shows the message next to it. `details.fields`
 * carries every field's problem when the form had several.
 */
function fieldError(status: number, fields: Partial<Record<keyof DiscountCodeFields, string>>) {
  const message = Object.values(fields)[0] ?? DISCOUNT_MESSAGES.saveFailedTitle;
  return new AppError(status === 409 ? "code_taken" : "validation_error", status, message, { fields });
}

/** The form's fields checked and normalized, or a 400 naming each field that is wrong. */
function parseRule(fields: object, currency: string): DiscountCodeRule {
  const parsed = discountCodeInputSchema.safeParse({ ...fields, currency });
  if (parsed.success) return parsed.data;
  const problems: Partial<Record<keyof DiscountCodeFields, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "code") as keyof DiscountCodeFields;
    problems[field] ??= issue.message;
  }
  throw fieldError(400, problems);
}

/** The chosen products must be the seller's own (a code can never name someone else's product). */
async function checkOwnProducts(trx: Database, sellerId: string, productIds: string[] | null) {
  if (!productIds?.length) return;
  const own = await trx
    .selectFrom("products")
    .select("id")
    .where("user_id", "=", sellerId)
    .where("id", "in", productIds)
    .execute();
  if (own.length !== productIds.length)
    throw fieldError(400, { productIds: DISCOUNT_MESSAGES.productsNotYours });
}

async function setChosenProducts(trx: Database, codeId: string, productIds: string[] | null) {
  await trx.deleteFrom("discount_code_products").where("discount_code_id", "=", codeId).execute();
  if (productIds?.length) {
    await trx
      .insertInto("discount_code_products")
      .values(productIds.map((productId) => ({ discount_code_id: codeId, product_id: productId })))
      .execute();
  }
}

const columnsOf = (rule: DiscountCodeRule) => ({
  code: rule.code,
  kind: rule.kind,
  value: rule.value,
  currency: rule.currency,
  all_products: rule.productIds === null,
  starts_at: rule.startsAt,
  ends_at: rule.endsAt,
  max_uses: rule.maxUses,
  membership_duration: rule.membershipDuration,
});

/** Saves in one transaction; a code the seller already has is a 409 on the code field. */
async function saving<T>(db: Database, work: (trx: Database) => Promise<T>): Promise<T> {
  try {
    return await inTransaction(db, work);
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError(409, { code: DISCOUNT_MESSAGES.codeTaken });
    throw error;
  }
}

async function savedCode(db: Database, sellerId: string, codeId: string, now: Date): Promise<DiscountCode> {
  const [code] = await listDiscountCodes(db, sellerId, now, codeId);
  if (!code) throw notFound(DISCOUNT_MESSAGES.notFound);
  return code;
}

/** A new code of the seller's, from the discounts page's form. */
export async function createDiscountCode(
  db: Database,
  sellerId: string,
  fields: unknown,
  now: Date,
): Promise<DiscountCode> {
  await assertHasActivePlan(db, sellerId, now);
  const rule = parseRule(fields as object, (await storeCurrencyOf(db, sellerId)).currency);
  const id = newCodeId();
  await saving(db, async (trx) => {
    const { count } = await trx
      .selectFrom("discount_codes")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("seller_id", "=", sellerId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= DISCOUNT_LIMITS.codesPerSeller)
      throw new AppError("too_many_codes", 409, DISCOUNT_MESSAGES.tooManyCodes);
    await checkOwnProducts(trx, sellerId, rule.productIds);
    await trx
      .insertInto("discount_codes")
      .values({ id, seller_id: sellerId, ...columnsOf(rule), created_at: now, updated_at: now })
      .execute();
    await setChosenProducts(trx, id, rule.productIds);
  });
  return savedCode(db, sellerId, id, now);
}

/** The form's fields as they are saved now, so a change of some of them is checked as a whole form. */
function fieldsOf(row: Selectable<DiscountCodeTable>, productIds: string[]): DiscountCodeFields {
  return {
    code: row.code,
    kind: row.kind,
    value: row.kind === "percent" ? String(row.value) : minorToDecimal(row.value, row.currency ?? "usd"),
    appliesTo: row.all_products ? "all" : "chosen",
    productIds,
    startsAt: row.starts_at?.toISOString() ?? null,
    endsAt: row.ends_at?.toISOString() ?? null,
    maxUses: row.max_uses === null ? "" : String(row.max_uses),
    membershipDuration: row.membership_duration,
  };
}

/**
 * Edits a code, or pauses and resumes it. Checkouts already open keep the price they were given; the
 * maximum cannot go below the uses already paid for.
 */
export async function updateDiscountCode(
  db: Database,
  sellerId: string,
  codeId: string,
  update: DiscountCodeUpdate,
  now: Date,
): Promise<DiscountCode> {
  const { paused, ...changes } = update;
  await saving(db, async (trx) => {
    const row = await trx
      .selectFrom("discount_codes")
      .selectAll()
      .where("id", "=", codeId)
      .where("seller_id", "=", sellerId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound(DISCOUNT_MESSAGES.notFound);
    const chosen = await trx
      .selectFrom("discount_code_products")
      .select("product_id")
      .where("discount_code_id", "=", codeId)
      .execute();
    // An amount off keeps its currency; a percentage made an amount takes the store's.
    const currency = row.currency ?? (await storeCurrencyOf(trx, sellerId)).currency;
    const rule = parseRule(
      {
        ...fieldsOf(
          row,
          chosen.map((c) => c.product_id),
        ),
        ...changes,
      },
      currency,
    );
    if (rule.maxUses !== null && rule.maxUses < row.uses_used)
      throw fieldError(400, { maxUses: DISCOUNT_MESSAGES.maxUsesBelowUses });
    if (changes.productIds !== undefined || changes.appliesTo !== undefined) {
      await checkOwnProducts(trx, sellerId, rule.productIds);
      await setChosenProducts(trx, codeId, rule.productIds);
    }
    await trx
      .updateTable("discount_codes")
      .set({ ...columnsOf(rule), ...(paused !== undefined ? { paused } : {}), updated_at: now })
      .where("id", "=", codeId)
      .execute();
  });
  return savedCode(db, sellerId, codeId, now);
}
