import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * Decision 0340: the browser's first load is few chunks, not dozens. Every page loads the root
 * route, and most open on the feed; by default each module they share with other routes is a
 * chunk of its own, and a file of a few hundred bytes compresses badly and costs a request.
 * Here the app's modules that the root route imports statically become one chunk ('shell'),
 * and those the feed (/home) adds another ('feed'). Lazily loaded modules (the composer,
 * modals, menus) and packages keep the default chunking.
 */
function firstLoadChunks(): { plugin: Plugin; groups: { name: string; test(id: string): boolean }[] } {
  const groupOf = new Map<string, "shell" | "feed">();
  const plugin: Plugin = {
    name: "cbs:first-load-chunks",
    apply: "build",
    buildEnd() {
      // A module some code imports dynamically is meant to load later: it and what only it
      // imports stay out of the groups (e.g. the parts the server renders and the browser
      // hydrates from chunks of their own: app/lib/lazy-load.ts hydratedLater). A module in a
      // group goes there whole, with what only lazy chunks use of it: keep those apart.
      const ids = [...this.getModuleIds()];
      const loadedLater = new Set(ids.flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? []));
      const closure = (entry: string) => {
        const seen = new Set<string>();
        const queue = [entry];
        while (queue.length > 0) {
          const id = queue.pop() as string;
          if (seen.has(id) || (id !== entry && loadedLater.has(id))) continue;
          seen.add(id);
          for (const next of this.getModuleInfo(id)?.importedIds ?? []) queue.push(next);
        }
        return seen;
      };
      const appModule = (id: string) => id.startsWith(root) && !id.includes("/node_modules/");
      const entryOf = (file: string) => ids.find((id) => id === `${root}app/${file}`);
      const rootEntry = entryOf("root.tsx");
      const homeEntry = entryOf("routes/feed/home.tsx");
      if (!rootEntry || !homeEntry) return;
      const shell = closure(rootEntry);
      for (const id of shell) if (appModule(id) && id !== rootEntry) groupOf.set(id, "shell");
      for (const id of closure(homeEntry)) {
        if (appModule(id) && id !== homeEntry && !shell.has(id)) groupOf.set(id, "feed");
      }
    },
  };
  const groups = (["shell", "feed"] as const).map((name) => ({
    name,
    test: (id: string) => groupOf.get(id) === name,
  }));
  return { plugin, groups };
}

/**
 * Decision 0472: the build prints only what needs acting on (scripts/test.sh fails on
 * any warning). Two of the bundler's reports are about our design, not a fault:
 * - a part hydrated later (decision 0370, app/lib/lazy-load.ts) is imported with import() where it
 *   may wait and statically on the pages that need it at once; there the import() does not split it
 *   off, as the warning says, and is not meant to: it is there for React's Suspense boundary, which
 *   hydrates the part later. Ten such warnings on every build hid the ones that matter;
 * - how long plugins took, printed whenever the machine is busy: a measure, not a problem.
 */
const BUILD_CHECKS = { ineffectiveDynamicImport: false, bundlerTimings: false };

export default defineConfig(({ isSsrBuild }) => {
  const chunks = firstLoadChunks();
  return {
    // The server build's entry is our Express app, so one bundle holds the
    // React Router handler, the domain core and the HTTP glue (main.js loads it).
    build: isSsrBuild
      ? { rollupOptions: { input: "./server/http/app.ts", checks: BUILD_CHECKS } }
      : { rollupOptions: { output: { codeSplitting: { groups: chunks.groups } }, checks: BUILD_CHECKS } },
    resolve: { alias: [{ find: /^~\//, replacement: `${root}` }] },
    ssr: {
      // Native or WASM packages stay outside the bundle and load from node_modules.
      external: [
        "@electric-sql/pglite",
        "pg",
        "sharp",
        "file-type",
        "nodemailer",
        "pino",
        "better-auth",
        "fast-geoip",
      ],
    },
    plugins: [tailwindcss(), reactRouter(), ...(isSsrBuild ? [] : [chunks.plugin])],
  };
});
