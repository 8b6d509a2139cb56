import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { describe, expect, it } from "vitest";
import {
  browserImports,
  browserModules,
  name,
  repositoryGraph,
  resolveSpecifier,
  root,
  runtimeImports,
} from "~/tests/support/import-graph";

/**
 * Decision 0530: code that both the browser and the server run is marked by its name,
 * `<name>.shared.ts`. A `server/` module that browser code reaches at run time must be one, and a
 * `.shared.ts` module may import no Node built-in, no database package and nothing under
 * `server/db/`, nor a server module that is not itself shared.
 */

const databasePackages = /^(?:drizzle-orm|pg|@electric-sql\/pglite)(?:\/|$)/;
const builtins = new Set(builtinModules);
const isShared = (relativeName: string) => /\.shared\.tsx?$/.test(relativeName);

/**
 * Server modules under server/db/ that shared code may import, each with its reason. Only
 * `db/errors.ts`: plain functions over an error's `code` that `server/errors.shared.ts` uses to
 * answer 503; it imports nothing. Moving it out of db/ is left to a later change.
 */
const allowedDatabaseModules = new Set(["server/db/errors.ts"]);

/** Why an import of a `.shared.ts` module (`from`, relative to the root) is not allowed, or null. */
function forbiddenImport(from: string, specifier: string): string | null {
  if (specifier.startsWith("node:") || builtins.has(specifier.split("/")[0] ?? ""))
    return `${from} imports the Node built-in ${specifier}`;
  if (databasePackages.test(specifier)) return `${from} imports the database package ${specifier}`;
  const target = resolveSpecifier(`${root}${from}`, specifier);
  if (!target) return null;
  const targetName = name(target);
  if (targetName.startsWith("server/db/") && !allowedDatabaseModules.has(targetName))
    return `${from} imports ${targetName}, under server/db/`;
  if (targetName.startsWith("server/") && !targetName.startsWith("server/db/") && !isShared(targetName))
    return `${from} imports ${targetName}, a server module that is not .shared.ts`;
  return null;
}

/** Every import a shared module's text makes that decision 0530 forbids. */
function forbiddenImports(from: string, text: string): string[] {
  return runtimeImports(from, text).flatMap((specifier) => forbiddenImport(from, specifier) ?? []);
}

describe("code the browser and the server share", () => {
  it("finds forbidden imports of a shared module, and allows type-only ones", () => {
    const text = [
      'import { readFile } from "node:fs";',
      'import path from "path";',
      'import { sql } from "drizzle-orm";',
      'import { Pool } from "pg";',
      'import { posts } from "../db/schema";',
      'import { listPosts } from "./posts";',
      'import type { Db } from "../db/client";',
      'import { type Viewer } from "../accounts/viewer";',
      'import { POST_CATEGORIES } from "./categories.shared";',
      'import { z } from "zod";',
    ].join("\n");
    expect(forbiddenImports("server/posts/example.shared.ts", text)).toEqual([
      "server/posts/example.shared.ts imports the Node built-in node:fs",
      "server/posts/example.shared.ts imports the Node built-in path",
      "server/posts/example.shared.ts imports the database package drizzle-orm",
      "server/posts/example.shared.ts imports the database package pg",
      "server/posts/example.shared.ts imports server/db/schema/index.ts, under server/db/",
      "server/posts/example.shared.ts imports server/posts/posts.ts, a server module that is not .shared.ts",
    ]);
  });

  it("keeps of a route module only the imports its browser build keeps", () => {
    const text = [
      'import { Form } from "react-router";',
      'import { getThing } from "~/server/things";',
      'import { helper } from "~/server/helper";',
      'import { LIMIT } from "~/server/limits.shared";',
      'import { typed } from "~/server/typed";',
      "const load = (id: string) => helper(id);",
      "export async function loader() { return getThing(load('x')); }",
      "export const action = async () => null;",
      "export default function Page(props: { data: typeof typed }) {",
      '  return <Form action="/x" method="post">{LIMIT}</Form>;',
      "}",
    ].join("\n");
    expect(browserImports("page.tsx", text)).toEqual(["react-router", "~/server/limits.shared"]);
  });

  it("has every server module that browser code reaches named .shared.ts", () => {
    const reached = [...browserModules(repositoryGraph())]
      .map(name)
      .filter((file) => file.startsWith("server/"));
    expect(reached.filter((file) => !isShared(file) && !allowedDatabaseModules.has(file)).sort()).toEqual([]);
    // The checker sees what it should: the categories are shared with the browser.
    expect(reached).toContain("server/posts/categories.shared.ts");
  });

  it("has no .shared.ts module import Node, the database or server-only code", () => {
    const shared = [...repositoryGraph().keys()].map(name).filter(isShared).sort();
    expect(shared.length).toBeGreaterThan(0);
    const problems = shared.flatMap((file) => forbiddenImports(file, readFileSync(`${root}${file}`, "utf8")));
    expect(problems).toEqual([]);
  });
});
