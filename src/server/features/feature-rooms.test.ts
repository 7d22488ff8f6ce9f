import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The server's features are rooms: one may use what another offers (its index.ts), but never in a
// circle (a feature that needs something of one that needs it back means a shared piece belongs lower:
// http/, db/, adapters/, or a room of its own like order-lifecycle/). biome.json checks file cycles and which
// layers may import which; this checks the rooms themselves. Tests are left out (they may use anything).
const FEATURES = path.join(import.meta.dirname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Imports of one room's files by another room's, past the room's index.ts (what it offers). */
function importsPastTheIndex(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(FEATURES)) {
    const feature = path.relative(FEATURES, file).split(path.sep)[0]!;
    for (const match of readFileSync(file, "utf8").matchAll(/from "(\.[^"]+)"/g)) {
      const target = path.relative(FEATURES, path.resolve(path.dirname(file), match[1]!));
      const [other, ...inside] = target.split(path.sep);
      if (target.startsWith("..") || other === feature || other!.includes(".")) continue;
      if (inside.length > 0 && inside.join("/") !== "index") {
        found.push(`${path.relative(FEATURES, file)} imports ${match[1]}`);
      }
    }
  }
  return found;
}

/** Each feature, and the other features its files import. */
function featureImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(FEATURES)) {
    const feature = path.relative(FEATURES, file).split(path.sep)[0]!;
    if (!graph.has(feature)) graph.set(feature, new Set());
    for (const match of readFileSync(file, "utf8").matchAll(/from "(\.[^"]+)"/g)) {
      const target = path.relative(FEATURES, path.resolve(path.dirname(file), match[1]!));
      const other = target.split(path.sep)[0]!;
      if (!target.startsWith("..") && other !== feature && !other.includes("."))
        graph.get(feature)!.add(other);
    }
  }
  return graph;
}

/** The circles of the graph: its strongly connected components of more than one feature (Tarjan). */
function circles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const lowOf = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    lowOf.set(node, index++);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        lowOf.set(node, Math.min(lowOf.get(node)!, lowOf.get(next)!));
      } else if (stack.includes(next)) lowOf.set(node, Math.min(lowOf.get(node)!, indexOf.get(next)!));
    }
    if (lowOf.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return found;
}

describe("the server's feature rooms", () => {
  it("import each other in one direction only: no circle of features", () => {
    const graph = featureImports();
    // The crawl must see the rooms, or this would pass on nothing.
    expect(graph.get("checkout")).toContain("orders");
    expect(circles(graph)).toEqual([]);
  });

  it("use one another only through each room's index.ts, which says what the room offers", () => {
    expect(importsPastTheIndex()).toEqual([]);
  });

  it("finds a circle when there is one", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(circles(graph)).toEqual([["a", "b", "c"]]);
  });
});
