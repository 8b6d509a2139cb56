import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The project's server/ folder. */
export const SERVER_DIR = fileURLToPath(new URL("../../server/", import.meta.url));

/** Every non-test TypeScript file under server/, relative to it ('jobs/registry.ts'), sorted. */
export function serverSourceFiles(dir = SERVER_DIR): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) found.push(full);
    }
  };
  walk(dir);
  return found.map((file) => relative(dir, file)).sort();
}
