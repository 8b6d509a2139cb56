import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/**
 * The import graph of this repository's modules, read from source (decisions 0501 and 0530).
 *
 * What counts as an edge: a static `import … from`, `import "…"` or `export … from` of a module
 * of this repository. Left out: type-only imports (`import type`, `import { type X }` where
 * every name is a type, and the `export` forms of both), which vanish from the built code; and
 * `import()` expressions, which load a module later, once every static import has run.
 *
 * The resolver follows tsconfig.json: relative paths and the one alias, `~/*` → the repository
 * root. Package imports (`react`, `node:fs`, …) are not followed. It reads files only.
 */

export const root = fileURLToPath(new URL("../../", import.meta.url));
const sourceFile = /\.(?:ts|tsx|js|jsx|mjs)$/;
const extensions = [".ts", ".tsx", ".js", ".jsx", ".mjs"];

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (sourceFile.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The file a specifier names, or null for a package, a non-code file (JSON, CSS) or a virtual module. */
export function resolveSpecifier(fromFile: string, specifier: string): string | null {
  const bare = specifier.replace(/\?.*$/, "");
  let base: string;
  if (bare.startsWith("~/")) base = join(root, bare.slice(2));
  else if (bare.startsWith("./") || bare.startsWith("../")) base = resolve(dirname(fromFile), bare);
  else return null;
  const candidates = [
    base,
    // `./x.js` written for `./x.ts` (TypeScript's ESM spelling).
    base.replace(/\.js$/, ".ts"),
    base.replace(/\.js$/, ".tsx"),
    ...extensions.map((extension) => base + extension),
    ...extensions.map((extension) => join(base, `index${extension}`)),
  ];
  for (const candidate of candidates) {
    if (sourceFile.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function onlyTypes(elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly);
}

/** The specifiers a module imports at run time, statically (see the header for what is left out). */
export function runtimeImports(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      if (clause && !clause.name && bindings && ts.isNamedImports(bindings) && onlyTypes(bindings.elements))
        continue;
      out.push(statement.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      if (statement.isTypeOnly) continue;
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause) && onlyTypes(clause.elements)) continue;
      out.push(statement.moduleSpecifier.text);
    }
  }
  return out;
}

/** Module → the repository modules it imports at run time (absolute paths). */
export type Graph = Map<string, Set<string>>;

/** The graph of every module under `dirs` (relative to the root) and of what they reach. */
export function importGraph(dirs: readonly string[] = ["app", "server"]): Graph {
  const graph: Graph = new Map();
  const pending = dirs.flatMap((dir) => sourceFiles(join(root, dir)));
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (graph.has(file)) continue;
    const edges = new Set<string>();
    graph.set(file, edges);
    for (const specifier of runtimeImports(file, readFileSync(file, "utf8"))) {
      const target = resolveSpecifier(file, specifier);
      if (!target || target.includes(`${sep}node_modules${sep}`)) continue;
      edges.add(target);
      if (!graph.has(target)) pending.push(target);
    }
  }
  return graph;
}

let builtGraph: Graph | undefined;
/** The app/ and server/ graph, read once per test file: it takes seconds to read. */
export const repositoryGraph = (): Graph => {
  builtGraph ??= importGraph();
  return builtGraph;
};

/** A path relative to the root, with forward slashes. */
export const name = (file: string): string => relative(root, file).split(sep).join("/");

/** Every module reached from `starts` through the graph's edges, the starts included. */
export function reachable(graph: Graph, starts: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const pending = [...starts];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of graph.get(file) ?? []) if (!seen.has(next)) pending.push(next);
  }
  return seen;
}

/** The exports of a route module that React Router's browser build removes, with what only they use. */
const serverOnlyExports = new Set(["loader", "action", "middleware", "unstable_middleware", "headers"]);

function declaredNames(statement: ts.Statement): string[] {
  if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name)
    return [statement.name.text];
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.flatMap((declaration) =>
      ts.isIdentifier(declaration.name) ? [declaration.name.text] : [],
    );
  return [];
}

/** The names a piece of code uses at run time: types (`typeof loader` among them) are left out. */
function identifiersIn(node: ts.Node, into: Set<string>): void {
  if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
  // A property's or a JSX attribute's name (`<Form action="…">`) names no declaration.
  if (ts.isPropertyAccessExpression(node)) {
    identifiersIn(node.expression, into);
    return;
  }
  if (ts.isJsxAttribute(node) || ts.isPropertyAssignment(node)) {
    if (node.initializer) identifiersIn(node.initializer, into);
    return;
  }
  if (ts.isIdentifier(node)) into.add(node.text);
  ts.forEachChild(node, (child) => identifiersIn(child, into));
}

/**
 * The specifiers a route module imports that stay in the browser's build: React Router drops
 * `loader`, `action`, `middleware` and `headers`, and the bundler then drops every top-level
 * declaration and import only they used. A reading of names, not a bundler: a name used anywhere
 * in what is kept keeps its import.
 */
export function browserImports(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const runtime = new Set(runtimeImports(fileName, text));
  const declarations = new Map<string, ts.Statement>();
  const roots: ts.Statement[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) continue;
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) continue;
    const names = declaredNames(statement);
    if (names.length === 0) {
      roots.push(statement);
      continue;
    }
    for (const declared of names) declarations.set(declared, statement);
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (exported && !names.every((declared) => serverOnlyExports.has(declared))) roots.push(statement);
  }
  const used = new Set<string>();
  const kept = new Set<ts.Statement>();
  const pending = [...roots];
  while (pending.length > 0) {
    const statement = pending.pop() as ts.Statement;
    if (kept.has(statement)) continue;
    kept.add(statement);
    const found = new Set<string>();
    identifiersIn(statement, found);
    for (const identifier of found) {
      used.add(identifier);
      const declaration = declarations.get(identifier);
      if (declaration && !kept.has(declaration)) pending.push(declaration);
    }
  }
  const out: string[] = [];
  for (const statement of source.statements) {
    let specifier: string | undefined;
    let locals: string[] = [];
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      specifier = statement.moduleSpecifier.text;
      const clause = statement.importClause;
      if (!clause) {
        if (runtime.has(specifier)) out.push(specifier);
        continue;
      }
      if (clause.name) locals.push(clause.name.text);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) locals.push(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings))
        locals = locals.concat(bindings.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text));
      if (runtime.has(specifier) && locals.some((local) => used.has(local))) out.push(specifier);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      specifier = statement.moduleSpecifier.text;
      const clause = statement.exportClause;
      const reexportsOnlyServer =
        clause &&
        ts.isNamedExports(clause) &&
        clause.elements.every((element) => serverOnlyExports.has(element.name.text));
      if (runtime.has(specifier) && !reexportsOnlyServer) out.push(specifier);
    }
  }
  return [...new Set(out)];
}

/** Route modules: their browser build keeps only part of what they import (see `browserImports`). */
export const isRouteModule = (file: string): boolean => /^app\/(?:routes\/|root\.tsx$)/.test(name(file));

/**
 * The modules that reach the browser (decision 0530): every module of app/ but the server's
 * (`.server.` in the name, `app/routes.ts`, tests), followed through run-time imports, a route
 * module through what its browser build keeps.
 */
export function browserModules(graph: Graph): Set<string> {
  const isBrowserStart = (file: string) => {
    const relativeName = name(file);
    return (
      relativeName.startsWith("app/") &&
      !/\.server\.|\.test\.|(?:^|\/)test-support|\.d\.ts$/.test(relativeName) &&
      relativeName !== "app/routes.ts"
    );
  };
  const seen = new Set<string>();
  const pending = [...graph.keys()].filter(isBrowserStart);
  while (pending.length > 0) {
    const file = pending.pop() as string;
    // React Router fails the browser's build if a `.server.` module is in it.
    if (seen.has(file) || name(file).includes(".server.")) continue;
    seen.add(file);
    let edges: Iterable<string> = graph.get(file) ?? [];
    if (isRouteModule(file)) {
      edges = browserImports(file, readFileSync(file, "utf8")).flatMap((specifier) => {
        const target = resolveSpecifier(file, specifier);
        return target && !target.includes(`${sep}node_modules${sep}`) ? [target] : [];
      });
    }
    for (const next of edges) if (!seen.has(next)) pending.push(next);
  }
  return seen;
}
