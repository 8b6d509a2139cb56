// The Node entry (docs/contract.md 'Two commands'): serves the built app, or with
// --dev runs Vite in middleware mode. Stops cleanly on SIGINT/SIGTERM.
// WORKERS=n (n > 1, PostgreSQL only) runs n such processes sharing the port (scripts/cluster.js,
// decision 0290); this file is then both the primary (which only supervises) and each worker.
import cluster from "node:cluster";
import net from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import {
  aboveConnectionShare,
  CONNECTION_REPORT_MS,
  resolveWorkerCount,
  STANDBY_ENV,
  STANDBY_READY,
  STANDBY_SERVE,
  superviseWorkers,
} from "./scripts/cluster.js";
import { developmentBuildsWarning, selectReactProductionBuild } from "./scripts/runtime-env.js";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT || 3000);

let workers = 1;
if (!dev && cluster.isPrimary) {
  try {
    workers = resolveWorkerCount(process.env, availableParallelism());
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

if (workers > 1) superviseWorkers({ count: workers, port });
else await serve();

async function serve() {
  const server = express();
  server.disable("x-powered-by");

  let stopping = false;
  // Decision 0355 (scripts/cluster.js): this worker's open connections, those it has told to
  // close, and the share of all the workers' connections the primary last gave it.
  let openConnections = 0;
  let closingConnections = 0;
  let connectionShare = Number.POSITIVE_INFINITY;
  const closing = new WeakSet();
  // Decision 0473: the standby starts the app but listens only when the primary says so.
  const standby = cluster.isWorker && process.env[STANDBY_ENV] === "1";
  /** @type {() => void} */
  let serveNow = () => {};
  const served = new Promise((resolve) => {
    serveNow = () => resolve(undefined);
  });
  if (!standby) serveNow();
  if (cluster.isWorker) {
    process.on("message", (message) => {
      if (message?.type === "connection-share") connectionShare = message.share;
      if (message?.type === STANDBY_SERVE) serveNow();
    });
    // A standby holds no connections: it reports none until it serves, or it would lower the share.
    void served.then(() =>
      setInterval(
        () => process.send?.({ type: "connections", open: openConnections }),
        CONNECTION_REPORT_MS,
      ).unref(),
    );
  }
  server.use((req, res, next) => {
    // Once stopping, every answer closes its connection, so no client sends its next request to a
    // process that is going away (a restart under load loses none; decision 0290).
    if (stopping) res.setHeader("Connection", "close");
    else if (
      aboveConnectionShare({ open: openConnections, closing: closingConnections, share: connectionShare }) &&
      !closing.has(req.socket)
    ) {
      // More than this worker's share: this answer closes its connection, and the client
      // reconnects to whichever worker accepts first (decision 0355).
      closing.add(req.socket);
      closingConnections += 1;
      res.setHeader("Connection", "close");
    }
    next();
  });

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
    // Decision 0510: React Router's production build needs Node's export condition, given at start.
    const developmentBuilds = developmentBuildsWarning();
    if (developmentBuilds) console.warn(developmentBuilds);
    // The built assets, favicon and campus logos (server/http/static-files.ts).
    serveFrontEnd = await clientFiles(path.resolve("build/client"));
  }
  // Ahead of the rest: the lists' next pages compress their own answers (server/http/app.ts).
  server.use(running.listPages);
  // The live-event stream (decision 0211): compression would hold its writes back.
  server.use(running.eventStream);
  // Before the static files, so the built assets are compressed too (decision 0001). A page is
  // rendered for one reader and sent once: brotli at quality 3 costs it about half of the
  // middleware's default 4 for 5 % more bytes (decision 0354).
  server.use(compression({ brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } } }));
  server.use(serveFrontEnd);
  server.use(running.app);
  // Decision 0471: every error answered by our page or JSON, never Express's stack trace.
  server.use(running.errors);

  if (standby) {
    // Stopped before it served (a restart, a shutdown): its background work and database close.
    const stopStandby = async () => {
      await running.close();
      process.exit(0);
    };
    process.once("SIGTERM", stopStandby);
    process.once("SIGINT", stopStandby);
    process.send?.({ type: STANDBY_READY });
    await served;
    process.off("SIGTERM", stopStandby);
    process.off("SIGINT", stopStandby);
  }
  const httpServer = server.listen(port, () => {
    // In a cluster the primary prints the address once for all the workers (scripts/cluster.js).
    if (cluster.isPrimary) console.log(`Campus Buy Sell is serving on http://localhost:${port}`);
  });
  httpServer.on("connection", (socket) => {
    openConnections += 1;
    socket.once("close", () => {
      openConnections -= 1;
      if (closing.has(socket)) closingConnections -= 1;
    });
  });

  async function shutdown(signal) {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing requests in flight, then closing the database`);
    // Long-lived connections (event streams) would hold close() forever.
    const force = setTimeout(() => httpServer.closeAllConnections(), 10_000);
    force.unref();
    // The event streams end now; their browsers reconnect (to another process) with Last-Event-ID.
    await running.endStreams();
    // Stop accepting, but leave open connections to end as clients expect: after their next answer
    // (Connection: close above), or idle past the keep-alive timeout the server announced
    // (Keep-Alive: timeout=5), which clients honour. http.Server's own close() would end idle ones
    // at once, racing a client that is sending its next request on one (a failed request in a
    // restart under load; decision 0290).
    await new Promise((resolve) => net.Server.prototype.close.call(httpServer, resolve));
    await running.close();
    process.exit(0);
  }
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}
