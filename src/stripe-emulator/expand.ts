import { invalidRequest } from "./errors.js";

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/**
 * Resolves one expandable field: given the object holding it, the field name and its current value
 * (usually an id), returns the object to put in its place, or `undefined` if it cannot be expanded.
 */
export type ExpandResolver = (
  holder: JsonObject,
  field: string,
  value: Json | undefined,
  /** The objects holding `holder`, outermost first (a session for its `total_details`). */
  parents: readonly JsonObject[],
) => Json | undefined;

/** Applies Stripe's `expand[]=a.b` paths; lists are walked through `data`. */
export function expandPaths(value: Json, paths: string[], resolve: ExpandResolver): Json {
  for (const path of paths) expandPath(value, path.split("."), resolve, []);
  return value;
}

function expandPath(
  node: Json,
  segments: string[],
  resolve: ExpandResolver,
  parents: readonly JsonObject[],
): void {
  if (Array.isArray(node)) {
    for (const item of node) expandPath(item, segments, resolve, parents);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const [field, ...rest] = segments;
  if (field === undefined) return;
  const current = node[field];
  const inner = [...parents, node];
  if (field === "data" && Array.isArray(current)) {
    expandPath(current, rest, resolve, inner);
    return;
  }
  if (current === null) return;
  // A list of ids (`discounts: ["di_…"]`) expands element by element.
  if (Array.isArray(current)) {
    node[field] = current.map((element) => {
      if (typeof element !== "string") return element;
      const expanded = resolve(node, field, element, parents);
      if (expanded === undefined)
        throw invalidRequest(`This property cannot be expanded (${field}).`, "expand");
      return expanded;
    });
    if (rest.length > 0) expandPath(node[field] ?? null, rest, resolve, inner);
    return;
  }
  if (current === undefined || typeof current === "string") {
    const expanded = resolve(node, field, current, parents);
    if (expanded === undefined)
      throw invalidRequest(`This property cannot be expanded (${field}).`, "expand");
    node[field] = expanded;
  }
  if (rest.length > 0) expandPath(node[field] ?? null, rest, resolve, inner);
}
