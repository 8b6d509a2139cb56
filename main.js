// The Node entry (CONTRACT.md 'Two commands'): serves the built app, or with
// --dev runs Vite in middleware mode. Stops cleanly on SIGINT/SIGTERM.
import { readdir } from "node:fs/promises";
import path from "node:path";
import compression from "compression";
import express from "express";
import { selectReactProductionBuild } from "./scripts/runtime-env.js";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT || 3000);

const server = express();
server.disable("x-powered-by");

let running;
let serveFrontEnd;
if (dev) {
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  const { startApp } = await viteDevServer.ssrLoadModule("./server/http/app.ts");
  running = await startApp({
    dev: true,
    build: () => viteDevServer.ssrLoadModule("virtual:react-router/server-build"),
  });
  serveFrontEnd = viteDevServer.middlewares;
} else {
  const operatorEnv = selectReactProductionBuild(process.env);
  const { startApp } = await import("./build/server/index.js");
  running = await startApp({ dev: false, env: operatorEnv });
  const client = path.resolve("build/client");
  // The other public files (favicon, campus logos) are few and fixed: only their paths reach the
  // file system, rather than every page request paying for a stat() that finds nothing.
  const publicStatic = express.static(client, { maxAge: "1h", index: false });
  const publicEntries = new Set(
    (await readdir(client, { withFileTypes: true }))
      .filter((entry) => entry.name !== "assets")
      .map((entry) => `/${entry.name}`),
  );
  serveFrontEnd = express.Router();
  // Fingerprinted assets never change: cache them for a year.
  serveFrontEnd.use(
    "/assets",
    express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y" }),
  );
  serveFrontEnd.use((req, res, next) => {
    const first = `/${req.path.split("/")[1] ?? ""}`;
    if (publicEntries.has(first)) publicStatic(req, res, next);
    else next();
  });
}
// Ahead of the rest: the lists' next pages compress their own answers (server/http/app.ts).
server.use(running.listPages);
// Before the static files, so the built assets are compressed too (issue 2 §1).
server.use(compression());
server.use(serveFrontEnd);
server.use(running.app);

const httpServer = server.listen(port, () => {
  console.log(`Campus Buy Sell is serving on http://localhost:${port}`);
});

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: finishing requests in flight, then closing the database`);
  // Long-lived connections (event streams) would hold close() forever.
  const force = setTimeout(() => httpServer.closeAllConnections(), 10_000);
  force.unref();
  await new Promise((resolve) => httpServer.close(resolve));
  await running.close();
  process.exit(0);
}
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
