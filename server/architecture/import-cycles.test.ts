import { describe, expect, it } from "vitest";
import { type Graph, name, repositoryGraph, runtimeImports } from "~/tests/support/import-graph";

/**
 * Decision 0501: no import cycles among the modules of app/ and server/. A cycle makes the
 * order in which modules run depend on which one is imported first (a constant read before
 * its module has run is `undefined`, or a TDZ error), and it ties areas together so neither
 * can be read, moved or split alone.
 *
 * What counts as an edge: a static `import … from`, `import "…"` or `export … from` of a module
 * of this repository. Left out: type-only imports (`import type`, `import { type X }` where
 * every name is a type, and the `export` forms of both), which vanish from the built code; and
 * `import()` expressions, which load a module later, once every static import has run — the
 * lazy parts of the first load (decision 0340) are loaded this way on purpose.
 *
 * The graph and its resolver are in tests/support/import-graph.ts, shared with the test of the code
 * the browser and the server share (decision 0530). This test lives under server/ because Vitest
 * collects tests there and under app/ (vitest.config.ts); it reads files only.
 */

/** Strongly connected components of more than one module (or a module that imports itself): Tarjan. */
function cycles(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One cycle through the component's first module, as `a → b → a`, for the failure message. */
function describeCycle(graph: Graph, component: string[]): string {
  const members = new Set(component);
  const start = [...component].sort()[0] as string;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0] as string) as string);
        return [...path, start].map(name).join(" → ");
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return component.map(name).join(", ");
}

describe("import cycles", () => {
  it("reads a type-only import as no edge, and every other static import as one", () => {
    const text = [
      'import type { A } from "./a";',
      'import { type B, type C } from "./b";',
      'import { type D, e } from "./d";',
      'import f from "./f";',
      'import "./g";',
      'export type { H } from "./h";',
      'export { i } from "./i";',
      'export * from "./j";',
      'const k = () => import("./k");',
    ].join("\n");
    expect(runtimeImports("x.ts", text)).toEqual(["./d", "./f", "./g", "./i", "./j"]);
  });

  it("finds a cycle, and names one path around it", () => {
    const graph: Graph = new Map([
      ["/r/a.ts", new Set(["/r/b.ts"])],
      ["/r/b.ts", new Set(["/r/c.ts", "/r/d.ts"])],
      ["/r/c.ts", new Set(["/r/a.ts"])],
      ["/r/d.ts", new Set<string>()],
    ]);
    const found = cycles(graph);
    expect(found.map((component) => [...component].sort())).toEqual([["/r/a.ts", "/r/b.ts", "/r/c.ts"]]);
  });

  it("finds none among app/ and server/ modules", () => {
    const graph = repositoryGraph();
    expect(cycles(graph).map((component) => describeCycle(graph, component))).toEqual([]);
  });

  // Decision 0500: the design system is the bottom layer of the components.
  it("has app/components/ui/ import no other folder of app/components/ nor a route", () => {
    const above = /^app\/(?:components\/(?!ui\/)|routes\/|root\.tsx)/;
    const upward: string[] = [];
    for (const [file, edges] of repositoryGraph()) {
      if (!name(file).startsWith("app/components/ui/")) continue;
      for (const target of edges)
        if (above.test(name(target))) upward.push(`${name(file)} → ${name(target)}`);
    }
    expect(upward).toEqual([]);
  });
});
