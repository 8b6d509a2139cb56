// Issue 16 §2: the JavaScript a phone downloads before /home is interactive, gzipped, must
// stay within a budget. Read from the build's route manifest (what the server puts in
// modulepreload links for a URL), so this is a size check on the build, not a timing.
// Usage: tsx scripts/js-budget.ts [--budget-kib 130] [--route routes/feed/home]
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

interface ManifestRoute {
  id: string;
  parentId?: string;
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

export const FIRST_LOAD_BUDGET_KIB = 130;

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

function readManifest(clientDir: string): Manifest {
  const assets = path.join(clientDir, "assets");
  const file = readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`no route manifest in ${assets}: run 'react-router build' first`);
  const source = readFileSync(path.join(assets, file), "utf8");
  const json = source.slice(source.indexOf("=") + 1).replace(/;\s*$/, "");
  return JSON.parse(json) as Manifest;
}

/** The module files a first visit to a route loads: the entry, then every route from root down. */
export function firstLoadFiles(manifest: Manifest, routeId: string): string[] {
  const chain: ManifestRoute[] = [];
  for (let id: string | undefined = routeId; id; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`route ${id} is not in the manifest`);
    chain.unshift(route);
  }
  const files = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  for (const route of chain) {
    files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  return [...files];
}

function main() {
  const clientDir = path.resolve("build/client");
  const budgetKib = Number(argument("--budget-kib") ?? FIRST_LOAD_BUDGET_KIB);
  const routeId = argument("--route") ?? "routes/feed/home";
  const files = firstLoadFiles(readManifest(clientDir), routeId);
  const sizes = files
    .map((file) => ({ file, bytes: gzipSync(readFileSync(path.join(clientDir, file)), { level: 9 }).length }))
    .sort((a, b) => b.bytes - a.bytes);
  const total = sizes.reduce((sum, entry) => sum + entry.bytes, 0);
  for (const { file, bytes } of sizes.slice(0, 12)) {
    console.log(`${(bytes / 1024).toFixed(1).padStart(7)} KiB  ${file}`);
  }
  const verdict = total <= budgetKib * 1024 ? "within" : "OVER";
  console.log(
    `first-load JavaScript of ${routeId}: ${(total / 1024).toFixed(1)} KiB gzipped in ${files.length} files, ${verdict} the budget of ${budgetKib} KiB`,
  );
  if (verdict === "OVER") process.exitCode = 1;
}

main();
