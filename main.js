// The Node entry (CONTRACT.md 'Two commands'): serves the built app, or with
// --dev runs Vite in middleware mode. Stops cleanly on SIGINT/SIGTERM.
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
  const { startApp, clientFiles } = await import("./build/server/index.js");
  running = await startApp({ dev: false, env: operatorEnv });
  // The built assets, favicon and campus logos (server/http/static-files.ts).
  serveFrontEnd = await clientFiles(path.resolve("build/client"));
}
// Ahead of the rest: the lists' next pages compress their own answers (server/http/app.ts).
server.use(running.listPages);
// The live-event stream (decision 0211): compression would hold its writes back.
server.use(running.eventStream);
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
  // The event streams end now; their browsers reconnect (to another process) with Last-Event-ID.
  await running.endStreams();
  await new Promise((resolve) => httpServer.close(resolve));
  await running.close();
  process.exit(0);
}
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
