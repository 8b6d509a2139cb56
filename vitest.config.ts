import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: { alias: [{ find: /^~\//, replacement: root }] },
  test: {
    include: [
      "server/**/*.test.{ts,tsx}",
      "app/**/*.test.{ts,tsx}",
      "bench/**/*.test.ts",
      // Decision 0495: tests of scripts/ live beside them.
      "scripts/**/*.test.{ts,tsx}",
    ],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/fail-on-console-error.ts"],
    // PGlite holds 400–600 MB per instance (docs/architecture.md pitfall 4).
    pool: "forks",
    maxWorkers: 2,
    // Decision 0508: each worker imports the server once; every file opens and closes its own database.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
