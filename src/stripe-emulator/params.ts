import { z } from "zod";
import { StripeApiError } from "./errors.js";

// Form bodies arrive as strings (qs); these schemas turn them into typed values and
// mark failures with Stripe's error code, which `parseParams` turns into Stripe's message.

export const text = () => z.string();

/** A string that may not be empty (Stripe's `parameter_invalid_empty`). */
export const requiredText = () => z.string().min(1, { error: "parameter_invalid_empty" });

export const integer = () =>
  z
    .union([z.number().int(), z.string().regex(/^-?\d+$/, { error: "parameter_invalid_integer" })])
    .transform((value) => Number(value));

export const nonNegativeInteger = () =>
  integer().pipe(z.number().min(0, { error: "parameter_invalid_integer" }));

export const boolean = () =>
  z
    .union([z.boolean(), z.enum(["true", "false"], { error: "parameter_invalid_boolean" })])
    .transform((value) => value === true || value === "true");

/** Stripe sets metadata key by key; an empty value removes a key, and `metadata=""` removes them all. */
export const metadata = () => z.union([z.literal(""), z.record(z.string(), z.string())]);

export function mergeMetadata(
  current: Record<string, string>,
  update: Record<string, string> | "" | undefined,
) {
  if (update === undefined) return current;
  if (update === "") return {};
  const merged = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === "") delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** An optional string parameter where `""` means "unset" (null in the object). */
export const emptyable = () => z.string().transform((value) => (value === "" ? null : value));

/** A list in a form body comes either as an array (`a[0]=x`) or as an object keyed by index. */
export const list = <T extends z.ZodType>(item: T) =>
  z.union([
    z.array(item),
    z.record(z.string().regex(/^\d+$/), item).transform((byIndex) => Object.values(byIndex)),
  ]);

export const listParams = {
  limit: integer()
    .pipe(
      z
        .number()
        .min(1, { error: "parameter_invalid_integer" })
        .max(100, { error: "parameter_invalid_integer" }),
    )
    .optional(),
  starting_after: text().optional(),
  ending_before: text().optional(),
};

const ISSUE_MESSAGES: Record<string, (param: string) => string> = {
  parameter_invalid_empty: (param) =>
    `You passed an empty string for '${param}'. We assume empty values are an attempt to unset a parameter; however '${param}' cannot be unset. You should remove '${param}' from your request or supply a non-empty value.`,
  parameter_invalid_integer: (param) => `Invalid integer: ${param}`,
  parameter_invalid_boolean: (param) => `Invalid boolean: ${param}`,
  parameter_invalid_decimal: (param) => `Invalid decimal: ${param}`,
};

/** `line_items[0][price_data]` — the way Stripe names nested parameters. */
export function paramName(path: readonly PropertyKey[]): string {
  const [first, ...rest] = path.map(String);
  return (first ?? "") + rest.map((segment) => `[${segment}]`).join("");
}

/** Validates request parameters, answering the first problem as Stripe would. */
export function parseParams<T extends z.ZodType>(schema: T, params: unknown): z.output<T> {
  const result = schema.safeParse(params, { reportInput: true });
  if (result.success) return result.data;
  const first = result.error.issues[0];
  if (!first) throw new StripeApiError(400, "invalid_request_error", "Invalid request.");
  const issue = innermost(first, []);
  if (issue.code === "unrecognized_keys") {
    const param = paramName([...issue.path, issue.keys[0] ?? ""]);
    return fail(`Received unknown parameter: ${param}`, "parameter_unknown", param);
  }
  const param = paramName(issue.path);
  if (issue.input === undefined) return fail(`Missing required param: ${param}.`, "parameter_missing", param);
  const describe = ISSUE_MESSAGES[issue.message];
  if (describe) {
    return fail(
      describe(issue.message === "parameter_invalid_empty" ? param : String(issue.input)),
      issue.message,
      param,
    );
  }
  if (issue.code === "invalid_value") {
    return fail(`Invalid ${param}: must be one of ${issue.values.map(String).join(", ")}`, undefined, param);
  }
  return fail(`Invalid value for ${param}.`, undefined, param);
}

/**
 * A union (a list given as array or as indexed object, a number given as number or string) reports
 * each branch's issues; the most telling one is the deepest, preferring our coded messages.
 */
function innermost(issue: z.core.$ZodIssue, prefix: PropertyKey[]): z.core.$ZodIssue {
  const absolute = { ...issue, path: [...prefix, ...issue.path] };
  if (issue.code !== "invalid_union") return absolute;
  let best: z.core.$ZodIssue | undefined;
  for (const branch of issue.errors) {
    const inner = branch[0];
    if (!inner) continue;
    const candidate = innermost(inner, absolute.path);
    const deeper = !best || candidate.path.length > best.path.length;
    const sameDepthButCoded =
      best &&
      candidate.path.length === best.path.length &&
      candidate.message in ISSUE_MESSAGES &&
      !(best.message in ISSUE_MESSAGES);
    if (deeper || sameDepthButCoded) best = candidate;
  }
  return best ?? absolute;
}

function fail(message: string, code: string | undefined, param: string): never {
  throw new StripeApiError(400, "invalid_request_error", message, code, param);
}

/** A decimal given as a number or a form string (`percent_off=25.5`). */
export const decimal = () =>
  z
    .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, { error: "parameter_invalid_decimal" })])
    .transform((value) => Number(value));

/** Stripe's range filter on timestamps: `created=123` or `created[gte]=123` (and `gt`, `lt`, `lte`). */
export const range = () =>
  z.union([
    integer(),
    z.strictObject({
      gt: integer().optional(),
      gte: integer().optional(),
      lt: integer().optional(),
      lte: integer().optional(),
    }),
  ]);

export function inRange(value: number, filter: z.output<ReturnType<typeof range>> | undefined): boolean {
  if (filter === undefined) return true;
  if (typeof filter === "number") return value === filter;
  return (
    (filter.gt === undefined || value > filter.gt) &&
    (filter.gte === undefined || value >= filter.gte) &&
    (filter.lt === undefined || value < filter.lt) &&
    (filter.lte === undefined || value <= filter.lte)
  );
}
