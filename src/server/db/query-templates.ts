import type { Compilable, CompiledQuery } from "kysely";
import type { Database } from "./database";

/**
 * Kysely builds a query as a tree of frozen nodes and compiles it to SQL on every call. For the hot
 * reads of the dashboard that was the biggest single cost in a request's CPU profile (about 15%, more
 * than parsing the rows). A template builds and compiles its query once per shape, with a marker in
 * place of each value, and each call only fills in the values: same SQL text, same prepared statement.
 *
 * `build` must use the values it is given only as values of the query (`where(col, "=", params.x)`,
 * `eb.tuple(params.a, params.b)`): never in JavaScript logic, never as a literal. What decides the
 * query's shape (a page size written as a literal, whether there is a cursor) goes in `shape`, and
 * each shape is compiled once. Misuse is refused when the query is first compiled or run.
 */
export function queryTemplate<Params extends Record<string, unknown>, Row, Shape = undefined>(
  build: (db: Database, params: Params, shape: Shape) => Compilable<Row>,
  shapeKey: (shape: Shape) => string = () => "",
) {
  const compiledByDb = new WeakMap<Database, Map<string, Compiled<Row>>>();

  const compiledFor = (db: Database, shape: Shape): Compiled<Row> => {
    let byShape = compiledByDb.get(db);
    if (!byShape) {
      byShape = new Map();
      compiledByDb.set(db, byShape);
    }
    const key = shapeKey(shape);
    let compiled = byShape.get(key);
    if (!compiled) {
      const read = new Set<string>();
      compiled = compile(build(db, markers<Params>(read), shape), read);
      byShape.set(key, compiled);
    }
    return compiled;
  };

  return {
    /** The rows of the query for these values. */
    async execute(db: Database, params: Params, ...[shape]: Shape extends undefined ? [] : [Shape]) {
      const { query, slots } = compiledFor(db, shape as Shape);
      const parameters = slots.map((slot) => {
        if (!("param" in slot)) return slot.value;
        if (!(slot.param in params)) throw new Error(`queryTemplate: no value for "${slot.param}"`);
        return params[slot.param];
      });
      return (await db.executeQuery<Row>({ ...query, parameters })).rows;
    },
  };
}

/** Each parameter of the compiled query: a value to fill in by name, or one the query always has. */
type Slot = { param: string } | { value: unknown };
interface Compiled<Row> {
  query: CompiledQuery<Row>;
  slots: Slot[];
}

const MARKER = "\u0000query-template:";

/** Stands in for the values while the query is built: reading `params.x` answers x's marker. */
function markers<Params>(read: Set<string>): Params {
  return new Proxy(
    {},
    {
      get: (_target, name) => {
        read.add(String(name));
        return `${MARKER}${String(name)}`;
      },
    },
  ) as Params;
}

function compile<Row>(query: Compilable<Row>, read: Set<string>): Compiled<Row> {
  const compiled = query.compile();
  if (compiled.sql.includes(MARKER)) {
    throw new Error("queryTemplate: a value was written into the SQL text; pass it as a value instead");
  }
  const slots = compiled.parameters.map((value): Slot => {
    if (typeof value !== "string" || !value.includes(MARKER)) return { value };
    // A marker that is not the whole value was changed in JavaScript (sliced, joined, ...).
    const param = value.slice(MARKER.length);
    if (!value.startsWith(MARKER) || !read.has(param)) {
      throw new Error(
        `queryTemplate: a value was changed while building the query: ${JSON.stringify(value)}`,
      );
    }
    return { param };
  });
  return { query: compiled, slots };
}
