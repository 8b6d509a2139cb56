// Decision 0290: `WORKERS=n` runs the built app as n processes sharing one port
// through Node's cluster module. This file is the primary's side: it decides how many processes,
// starts them, replaces one that dies, replaces them one by one on SIGHUP, and on SIGTERM/SIGINT
// lets each finish its requests (main.js's graceful shutdown, per process) before exiting.
// Plain JavaScript beside main.js: the primary never loads the app's bundle.
import cluster from "node:cluster";

/**
 * How often each worker tells the primary how many connections it holds (decision 0355). Its own
 * count it knows at once; the share it is compared with is at most this old. A message each way
 * is a few microseconds of each process's time.
 */
export const CONNECTION_REPORT_MS = 50;

/**
 * The most connections one worker should hold: an even share of all the workers' open
 * connections, and at least one (decision 0355). A worker above it closes keep-alive connections
 * after their answers until it is not; their clients reconnect, to whichever worker accepts first.
 * @param {number[]} counts each live worker's open connections
 * @returns {number}
 */
export function fairConnectionShare(counts) {
  if (counts.length === 0) return Number.POSITIVE_INFINITY;
  const total = counts.reduce((sum, count) => sum + count, 0);
  return Math.max(1, Math.ceil(total / counts.length));
}

/**
 * Whether a worker should close one more connection after its answer: it holds more than its
 * share, not counting the connections it has already told to close (decision 0355). Exactly the
 * share, not a margin above it: with 50 connections on two workers a margin of 2 left them at
 * 27 and 23 for good, and the 27's pages waited 17 % longer than the 23's.
 * @param {{ open: number, closing: number, share: number }} connections
 * @returns {boolean}
 */
export function aboveConnectionShare({ open, closing, share }) {
  return open - closing > share;
}

/**
 * Decision 0473: the environment variable that starts a worker as the standby: it loads the app
 * and opens its database like any worker, then waits for STANDBY_SERVE before it listens.
 */
export const STANDBY_ENV = "CBS_STANDBY";
/** The standby's message to the primary once its app is started. */
export const STANDBY_READY = "standby-ready";
/** The primary's message that makes the standby listen. */
export const STANDBY_SERVE = "standby-serve";

/** The signal that replaces every worker, one at a time, without refusing a request. */
export const RESTART_SIGNAL = "SIGHUP";
/** How long a worker may take to finish its requests after SIGTERM before the primary kills it. */
const STOP_GRACE_MS = 30_000;
/** A worker that dies before it ever listened is restarted after a growing pause, at most this. */
const MAX_RESTART_DELAY_MS = 30_000;
/** Consecutive deaths before listening after which the primary gives up (a broken configuration). */
const MAX_FAILED_STARTS = 5;

/**
 * How many app processes to run. WORKERS unset: one on the embedded database (PGlite
 * opens its folder in one process only), one per core on PostgreSQL. More than one
 * without DATABASE_URL is refused with a message naming the fix.
 * @param {Record<string, string | undefined>} env
 * @param {number} cores
 * @returns {number}
 */
export function resolveWorkerCount(env, cores) {
  const postgres = Boolean(env.DATABASE_URL && env.DATABASE_URL.trim() !== "");
  const raw = env.WORKERS?.trim() ?? "";
  if (raw === "") return postgres ? Math.max(1, cores) : 1;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1) {
    throw new Error(`WORKERS: expected a whole number of at least 1, got ${JSON.stringify(env.WORKERS)}`);
  }
  if (count > 1 && !postgres) {
    throw new Error(
      `WORKERS=${count}: the embedded database (no DATABASE_URL) can be opened by one process only. ` +
        "Set DATABASE_URL to a PostgreSQL server to run several processes, or leave WORKERS unset.",
    );
  }
  return count;
}

/**
 * Decision 0420: each worker's young generation. Node 20 lets a semi-space grow to 16 MB; under
 * load that is a scavenge every few pages, so a page's objects that wait for the database outlive
 * two of them and are promoted, and the old space fills towards a full collection every second or
 * so, a pause every page in flight waits for. With 32 MB, they mostly die young.
 */
export const WORKER_SEMI_SPACE_MB = 32;

/**
 * The Node arguments a worker starts with: the primary's own, and the young generation's size
 * unless the operator gave one (in the arguments or NODE_OPTIONS), which then wins.
 * @param {readonly string[]} execArgv
 * @param {string | undefined} nodeOptions
 * @returns {string[]}
 */
export function workerExecArgv(execArgv, nodeOptions) {
  const given = [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].some((arg) =>
    /^--max[-_]semi[-_]space[-_]size(=|$)/.test(arg),
  );
  return given ? [...execArgv] : [...execArgv, `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`];
}

/**
 * Runs in the primary process: forks `count` workers (this same main.js; cluster.isWorker
 * there) and supervises them until SIGTERM/SIGINT.
 * @param {{ count: number, port: number, log?: (line: string) => void }} options
 */
export function superviseWorkers({ count, port, log = (line) => console.log(line) }) {
  // Each worker accepts its own connections from the shared socket. In round-robin mode the
  // primary accepts and hands each connection over; one handed to a worker that is killed at
  // that moment stays open in the primary, unanswered, forever (seen under `kill -9`). Here a
  // killed worker takes only the connections it had accepted; the others stay in the queue.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv, process.env.NODE_OPTIONS) });
  /** Workers being stopped on purpose: their exit is not a crash. */
  const retiring = new Set();
  /** Workers that have listened at least once. */
  const listened = new Set();
  /** Replacements started by a restart: one that cannot start ends the restart, not a retry loop. */
  const spares = new Set();
  /** Each live worker's last reported open connections (decision 0355). */
  const connections = new Map();
  let stopping = false;
  let failedStarts = 0;
  let restarting = Promise.resolve();
  let announced = false;
  /**
   * Decision 0473: a worker that has started the app but does not listen. A process
   * killed in service is replaced by it at once, since starting one from nothing (loading the
   * bundle and its packages, opening the database) took 20 s on a loaded two-core machine.
   * `ready` once it said so; null while there is none.
   */
  let standby = null;
  let standbyFailures = 0;
  /** When each replacement was asked to serve, to report how soon it did. */
  const replacedAt = new Map();

  /** Resolves when the worker listens, rejects if it exits first. */
  function fork(env = {}) {
    const worker = cluster.fork(env);
    const ready = new Promise((resolve, reject) => {
      worker.once("listening", () => resolve(worker));
      worker.once("exit", (code, signal) =>
        reject(new Error(`worker ${worker.process.pid} exited (${signal ?? code}) before listening`)),
      );
    });
    // Whoever waits handles the rejection; unawaited forks must not crash the primary.
    ready.catch(() => {});
    return { worker, ready };
  }

  /** Starts the standby (decision 0473), unless one is there or the primary is stopping. */
  function startStandby() {
    if (stopping || standby) return;
    const { worker } = fork({ [STANDBY_ENV]: "1" });
    standby = { worker, ready: false };
  }

  /**
   * A worker died in service: the standby, when ready, listens in its place at once, and a new
   * standby starts; else a new worker starts from nothing. Both are logged as they happen, so the
   * order of events shows the replacement did not wait (tests/e2e/scale-out.spec.ts).
   */
  function replace(dead) {
    if (standby?.ready) {
      const { worker } = standby;
      standby = null;
      replacedAt.set(worker.id, { dead, at: performance.now() });
      worker.send({ type: STANDBY_SERVE });
      log(`standby worker ${worker.process.pid} takes the place of worker ${dead}`);
      startStandby();
      return;
    }
    const { worker } = fork();
    replacedAt.set(worker.id, { dead, at: performance.now() });
    log(`worker ${worker.process.pid} started in the place of worker ${dead}`);
  }

  function stopWorker(worker) {
    retiring.add(worker.id);
    const exited = new Promise((resolve) => {
      if (worker.isDead()) resolve();
      else worker.once("exit", () => resolve());
    });
    // SIGTERM runs the worker's own graceful shutdown (main.js): finish requests, close the pool.
    worker.process.kill("SIGTERM");
    const timer = setTimeout(() => {
      log(`worker ${worker.process.pid} did not stop within ${STOP_GRACE_MS / 1000} s: killing it`);
      worker.process.kill("SIGKILL");
    }, STOP_GRACE_MS);
    timer.unref();
    return exited.finally(() => clearTimeout(timer));
  }

  cluster.on("listening", (worker, address) => {
    listened.add(worker.id);
    failedStarts = 0;
    const replaced = replacedAt.get(worker.id);
    replacedAt.delete(worker.id);
    // bench/restart.ts reads the time to serve from this line.
    const soon = replaced
      ? ` (in the place of worker ${replaced.dead}, ${Math.round(performance.now() - replaced.at)} ms after it died)`
      : "";
    log(`worker ${worker.process.pid} is listening on port ${address.port}${soon}`);
    if (!announced && listened.size >= count) {
      announced = true;
      // docs/contract.md: npm start prints the address it serves on (once, for all the processes).
      log(`Campus Buy Sell is serving on http://localhost:${address.port || port} (${count} processes)`);
      startStandby();
    }
  });

  // Decision 0355: the kernel hands a burst of new connections to whichever worker accepts first,
  // often all to one, and a keep-alive connection stays where it landed. Each worker reports its
  // connections; the answer is its fair share, and a worker above it sheds the excess.
  cluster.on("message", (worker, message) => {
    if (message?.type === STANDBY_READY && standby?.worker === worker) {
      standby.ready = true;
      standbyFailures = 0;
      log(`standby worker ${worker.process.pid} is ready`);
      return;
    }
    if (message?.type !== "connections" || typeof message.open !== "number") return;
    connections.set(worker.id, message.open);
    worker.send({ type: "connection-share", share: fairConnectionShare([...connections.values()]) });
  });

  cluster.on("exit", (worker, code, signal) => {
    connections.delete(worker.id);
    replacedAt.delete(worker.id);
    if (standby?.worker === worker) {
      // The standby died before it was needed: another, after a growing pause (it serves nobody).
      standby = null;
      if (retiring.delete(worker.id) || stopping) return;
      standbyFailures += 1;
      log(`standby worker ${worker.process.pid} died (${signal ?? `exit code ${code}`}): starting another`);
      setTimeout(startStandby, Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** standbyFailures)).unref();
      return;
    }
    const planned = retiring.delete(worker.id);
    const hadListened = listened.delete(worker.id);
    const spare = spares.delete(worker.id) && !hadListened;
    if (planned || spare || stopping) return;
    log(`worker ${worker.process.pid} died (${signal ?? `exit code ${code}`}): starting a replacement`);
    if (!hadListened) failedStarts += 1;
    if (failedStarts >= MAX_FAILED_STARTS) {
      log(`${failedStarts} workers in a row died before listening: stopping (see the errors above)`);
      void shutdown("failed starts", 1);
      return;
    }
    // A crash in service is replaced at once (by the standby, when ready: decision 0473); a worker
    // that cannot start waits longer each time.
    if (hadListened) {
      replace(worker.process.pid);
      return;
    }
    const delay = Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** failedStarts);
    setTimeout(() => {
      if (!stopping) fork();
    }, delay).unref();
  });

  /** Replaces the workers one at a time: the new one listens before the old one stops taking requests. */
  async function rollingRestart() {
    // The standby runs the old code: it goes first, and a new one starts once the restart is done.
    if (standby) {
      const { worker } = standby;
      standby = null;
      await stopWorker(worker);
    }
    const old = Object.values(cluster.workers ?? {}).filter((w) => w && !retiring.has(w.id));
    log(`${RESTART_SIGNAL}: replacing ${old.length} workers one at a time`);
    for (const worker of old) {
      if (stopping) return;
      const replacement = fork();
      spares.add(replacement.worker.id);
      try {
        await replacement.ready;
        spares.delete(replacement.worker.id);
      } catch (error) {
        log(
          `restart stopped: ${error instanceof Error ? error.message : String(error)}; the old worker keeps serving`,
        );
        startStandby();
        return;
      }
      await stopWorker(worker);
    }
    log("restart done");
    startStandby();
  }

  async function shutdown(reason, exitCode = 0) {
    if (stopping) return;
    stopping = true;
    log(`${reason}: letting every worker finish its requests`);
    const workers = Object.values(cluster.workers ?? {}).filter(Boolean);
    await Promise.all(workers.map((worker) => stopWorker(worker)));
    process.exit(exitCode);
  }

  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on(RESTART_SIGNAL, () => {
    restarting = restarting.then(rollingRestart, rollingRestart);
  });

  // The first worker migrates and seeds the database alone; the others start once it listens.
  const first = fork();
  first.ready.then(
    () => {
      for (let i = 1; i < count; i++) fork();
    },
    (error) => {
      log(`the first worker could not start: ${error.message}`);
      void shutdown("start failed", 1);
    },
  );
}
