// Decision 0473: the time from `kill -9` of a worker until the port is served by its
// replacement again, on the built app with WORKERS=2 on PostgreSQL. Each round waits for a ready
// standby, kills the newest serving worker and reads the primary's log line
// `worker B is listening on port P (in the place of worker A, N ms after it died)`; it also times,
// from this side, the first answer from a process other than the killed one after the kill.
//
//   npm run build
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench npx tsx bench/restart.ts
//
// Knobs: BENCH_PORT (4196), BENCH_RESTART_ROUNDS (5). Not a test: nothing here runs in `npm test`.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startAppProcess } from "../scripts/app-process";

const DATABASE_URL = process.env.DATABASE_URL ?? "";
const PORT = Number(process.env.BENCH_PORT ?? 4196);
const ROUNDS = Number(process.env.BENCH_RESTART_ROUNDS ?? 5);

if (!DATABASE_URL) {
  console.error("DATABASE_URL must name a PostgreSQL database (several processes need one).");
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(tmpdir(), "cbs-bench-restart-"));
const logFile = path.join(dataDir, "app.log");
const app = await startAppProcess({
  env: {
    PATH: process.env.PATH,
    PORT: String(PORT),
    DATABASE_URL,
    DATA_DIR: dataDir,
    WORKERS: "2",
    SEED_DEMO: "0",
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    TEST_FIXTURES: "0",
    // Production needs a secret (README, Configuration); any will do for one run.
    APP_SECRET: "bench-restart-secret-0123456789abcdef0123456789abcdef",
  },
  port: PORT,
  output: logFile,
  name: "app (2 workers)",
  startTimeoutMs: 180_000,
});

const log = () => readFileSync(logFile, "utf8");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The newest worker that listens and has not died, as the primary's log tells. */
async function servingPid(): Promise<number | null> {
  const listening = [...log().matchAll(/worker (\d+) is listening/g)].map((m) => Number(m[1]));
  const dead = new Set([...log().matchAll(/worker (\d+) died/g)].map((m) => Number(m[1])));
  return listening.filter((pid) => !dead.has(pid)).at(-1) ?? null;
}

async function readyStandby(): Promise<boolean> {
  const ready = [...log().matchAll(/standby worker (\d+) is ready/g)].at(-1)?.[1];
  return ready !== undefined && !log().includes(`standby worker ${ready} takes the place`);
}

const results: { primaryMs: number; firstAnswerMs: number }[] = [];
try {
  for (let round = 1; round <= ROUNDS; round++) {
    while (!(await readyStandby())) await sleep(200);
    const victim = await servingPid();
    if (!victim) throw new Error(`no worker to kill. Log:\n${log()}`);
    const killedAt = performance.now();
    process.kill(victim, "SIGKILL");
    // From outside: the first answer after the kill (the other worker answers meanwhile too).
    let firstAnswerMs = Number.NaN;
    while (Number.isNaN(firstAnswerMs)) {
      try {
        const response = await fetch(`http://127.0.0.1:${PORT}/healthz`, {
          headers: { connection: "close" },
        });
        if (response.ok) firstAnswerMs = performance.now() - killedAt;
      } catch {
        await sleep(5);
      }
    }
    const line = new RegExp(`\\(in the place of worker ${victim}, (\\d+) ms after it died\\)`);
    let primaryMs: number | null = null;
    while (primaryMs === null) {
      const match = log().match(line);
      if (match) primaryMs = Number(match[1]);
      else if (performance.now() - killedAt > 120_000) throw new Error(`no replacement. Log:\n${log()}`);
      else await sleep(20);
    }
    results.push({ primaryMs, firstAnswerMs });
    console.log(
      `round ${round}: worker ${victim} killed; its replacement served ${primaryMs} ms after the primary saw it die (first answer from outside after ${firstAnswerMs.toFixed(0)} ms)`,
    );
  }
} finally {
  await app.stop(40_000);
  rmSync(dataDir, { recursive: true, force: true });
}

const sorted = results.map((r) => r.primaryMs).sort((a, b) => a - b);
console.log(
  `time to serve after kill -9 (primary's log): median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms over ${sorted.length} rounds`,
);
