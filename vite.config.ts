import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app, so one bundle holds the
  // React Router handler, the domain core and the HTTP glue (main.js loads it).
  build: isSsrBuild
    ? { rollupOptions: { input: "./server/http/app.ts" } }
    : {
        rollupOptions: {
          // Issue 16 §2: the browser shares modules with the server that define Zod schemas beside
          // constants it needs (server/posts/listing.ts, rich-text.ts …). Building a schema changes
          // nothing but the schema, so one the page never uses is dropped, and Zod with it.
          treeshake: { manualPureFunctions: ["z"] },
        },
      },
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
  plugins: [tailwindcss(), reactRouter()],
}));
