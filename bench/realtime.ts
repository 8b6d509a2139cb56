// The realtime benchmark (issue 13 §4, decision 0213). Not a test: run it after a build.
//
//   npx react-router build && npx tsx bench/realtime.ts
//
// Two processes of the built app (`node main.js`) on one PostgreSQL database; STREAMS signed-in
// users, each with one open `GET /events` stream, half on each process. A driver publishes events
// at RATE per second for SECONDS, each to a random user, through publishUserEvent in its own
// transaction, straight on the database: the chats API that will publish them does not exist yet,
// and the path from a commit to the browser is the same. It records, on this process's one clock,
// the time from the commit's return to the event's arrival on its stream, and which events
// arrived twice or never. Then a second phase at the same rate `kill -9`s process B half-way; its
// clients reconnect to process A with Last-Event-ID, and the same counts say whether anything
// was lost or duplicated; the time from the kill until each client's stream was open again is
// recorded too. Memory per idle stream: each app's RSS before and after its streams opened.
//
// Knobs: BENCH_PG (the server; postgres://postgres@127.0.0.1:5432/postgres), BENCH_STREAMS (2000),
// BENCH_RATE (50), BENCH_SECONDS (30), BENCH_KILL_SECONDS (20), BENCH_PORT_A (4196), BENCH_PORT_B (4197).
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { makeSignature } from "better-auth/crypto";
import pg from "pg";
import { type AppProcess, startAppProcess } from "../scripts/app-process";
import { wrapPool } from "../server/db/client";
import { session, user } from "../server/db/schema";
import { publishUserEvent } from "../server/realtime/events";
import { openSse, type SseStream } from "../tests/support/sse-client";

const SERVER = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const KILL_SECONDS = Number(process.env.BENCH_KILL_SECONDS ?? 20);
const PORTS = [Number(process.env.BENCH_PORT_A ?? 4196), Number(process.env.BENCH_PORT_B ?? 4197)] as const;
const SECRET = "realtime-bench-secret-0123456789abcdef";
const root = path.resolve(import.meta.dirname, "..");
const LOAD_BEFORE = os.loadavg().map((n) => n.toFixed(2));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}

function rssKb(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Client {
  userId: string;
  cookie: string;
  process: 0 | 1;
  stream: SseStream | null;
  lastId: string | null;
  /** Sequence numbers received, to count duplicates and losses. */
  received: Map<number, number>;
  resumedAt: number | null;
}

async function main() {
  const database = `cbs_bench_realtime_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const url = new URL(SERVER);
  url.pathname = `/${database}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "cbs-bench-realtime-"));
  const apps: AppProcess[] = [];
  const handle = wrapPool(new pg.Pool({ connectionString: url.toString(), max: 8 }));
  const clients: Client[] = [];
  /** `${userId}:${seq}` → when its commit returned. */
  const committed = new Map<string, number>();
  /** `${userId}:${seq}` → when it first arrived (it may arrive before the driver saw its commit return). */
  const arrived = new Map<string, number>();
  /** The keys published in each phase. */
  const phases: Record<1 | 2, string[]> = { 1: [], 2: [] };
  let phase: 1 | 2 = 1;
  const latenciesOf = (which: 1 | 2) =>
    phases[which].flatMap((key) => {
      const sent = committed.get(key);
      const at = arrived.get(key);
      return sent === undefined || at === undefined ? [] : [at - sent];
    });

  try {
    for (const [n, port] of PORTS.entries()) {
      const name = `realtime-bench-${"AB"[n]}`;
      // One at a time: the first migrates the new database.
      apps.push(
        await startAppProcess({
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            PORT: String(port),
            DATABASE_URL: url.toString(),
            APP_SECRET: SECRET,
            DATA_DIR: path.join(dataDir, name),
            SEED_DEMO: "0",
            LOG_LEVEL: "warn",
            REALTIME_MAX_STREAMS: String(STREAMS * 2),
          },
          port,
          output: path.join(root, ".tmp", `${name}.log`),
          name,
        }),
      );
    }
    const [a, b] = apps as [AppProcess, AppProcess];

    // Users and sessions written directly (a sign-in each would spend minutes hashing passwords);
    // the cookie is signed as better-auth signs it.
    console.log(`Creating ${STREAMS} signed-in users…`);
    const now = new Date();
    for (let start = 0; start < STREAMS; start += 500) {
      const batch = Array.from({ length: Math.min(500, STREAMS - start) }, (_, i) => {
        const n = start + i;
        return { id: `bench-${n}`, token: randomBytes(24).toString("base64url"), n };
      });
      await handle.db.insert(user).values(
        batch.map(({ id, n }) => ({
          id,
          name: `Bench User${n}`,
          email: `bench${n}@bench.test`,
          verified: true,
          firstName: "Bench",
          lastName: `User${n}`,
          username: `benchuser${n}`,
          campusId: "ou",
          createdAt: now,
          updatedAt: now,
        })),
      );
      await handle.db.insert(session).values(
        batch.map(({ id, token }) => ({
          id: `s-${id}`,
          token,
          userId: id,
          expiresAt: new Date(now.getTime() + 86_400_000),
          createdAt: now,
          updatedAt: now,
        })),
      );
      for (const { id, token, n } of batch) {
        const signed = `${token}.${await makeSignature(token, SECRET)}`;
        clients.push({
          userId: id,
          cookie: `better-auth.session_token=${encodeURIComponent(signed)}`,
          process: (n % 2) as 0 | 1,
          stream: null,
          lastId: null,
          received: new Map(),
          resumedAt: null,
        });
      }
    }

    /**
     * RSS of both apps after `idleMs` without work. Garbage of the connects is counted too until
     * V8 collects it (a forced collection through a heap snapshot inflates RSS by far more).
     */
    const idleRss = async (idleMs: number) => {
      await sleep(idleMs);
      return apps.map((app) => rssKb(app.pid));
    };
    const rssBefore = await idleRss(5000);
    const connect = async (client: Client, to: 0 | 1) => {
      const app = apps[to] as AppProcess;
      const stream = openSse(app.url("/events"), {
        cookie: client.cookie,
        lastEventId: client.lastId ?? "0",
        onFrame(frame) {
          const at = performance.now();
          if (frame.id !== null) client.lastId = frame.id;
          if (frame.event !== "bench") return;
          const seq = Number(frame.id);
          client.received.set(seq, (client.received.get(seq) ?? 0) + 1);
          const key = `${client.userId}:${seq}`;
          if (!arrived.has(key)) arrived.set(key, at);
        },
      });
      client.stream = stream;
      client.process = to;
      const opened = await stream.opened;
      if (opened.status !== 200) throw new Error(`stream refused: ${opened.status} ${opened.body}`);
      return stream;
    };
    console.log(`Opening ${STREAMS} streams (${STREAMS / 2} per process)…`);
    const openStart = performance.now();
    for (let start = 0; start < clients.length; start += 100) {
      await Promise.all(clients.slice(start, start + 100).map((client) => connect(client, client.process)));
    }
    const openMs = performance.now() - openStart;
    const rssAfter = await idleRss(20_000);
    /**
     * One connect's own time: 50 more streams opened and closed one after another on process A,
     * each until its first frame (a Last-Event-ID from the future gets 'reset' once the stream is
     * subscribed: session lookup, caps, LISTEN check and the starting-point query all done).
     */
    const single: number[] = [];
    for (let n = 0; n < 50; n++) {
      const client = clients[n] as Client;
      const started = performance.now();
      const probe = openSse(a.url("/events"), { cookie: client.cookie, lastEventId: "999999999" });
      await probe.until((frames) => frames.length > 0);
      single.push(performance.now() - started);
      probe.close();
    }
    const perStreamKb = rssAfter.map(
      (after, n) => Math.round(((after - (rssBefore[n] ?? 0)) / (STREAMS / 2)) * 10) / 10,
    );
    console.log(`RSS before ${rssBefore} kB, after ${rssAfter} kB: ${perStreamKb} kB per idle stream`);

    let published = 0;
    let driverErrors = 0;
    const publishOne = async () => {
      const client = clients[Math.floor(Math.random() * clients.length)] as Client;
      try {
        const seq = await handle.db.transaction((tx) =>
          publishUserEvent(tx, client.userId, { type: "bench", data: { n: published } }),
        );
        const key = `${client.userId}:${seq}`;
        committed.set(key, performance.now());
        phases[phase].push(key);
        published++;
      } catch {
        driverErrors++;
      }
    };
    /** Publishes at RATE for `seconds` on a fixed schedule (not waiting for the previous commit). */
    const drive = async (seconds: number, midway?: () => void) => {
      const total = Math.round(seconds * RATE);
      const start = performance.now();
      const inFlight: Promise<void>[] = [];
      for (let n = 0; n < total; n++) {
        const due = start + (n * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        if (midway && n === Math.floor(total / 2)) midway();
        inFlight.push(publishOne());
      }
      await Promise.all(inFlight);
    };

    console.log(`Phase 1: ${RATE} events/s for ${SECONDS} s…`);
    await drive(SECONDS);
    await sleep(2000);
    const phase1 = latenciesOf(1);

    console.log(`Phase 2: ${RATE} events/s for ${KILL_SECONDS} s, kill -9 of process B half-way…`);
    phase = 2;
    let killedAt = 0;
    const resumptions: Promise<void>[] = [];
    const killB = () => {
      killedAt = performance.now();
      if (b.pid) process.kill(b.pid, "SIGKILL");
      for (const client of clients.filter((c) => c.process === 1)) {
        const stream = client.stream;
        if (!stream) continue;
        resumptions.push(
          stream.ended.then(async () => {
            // As a browser does after a dropped stream: wait (spread over a second), reconnect elsewhere.
            await sleep(Math.random() * 1000);
            for (let attempt = 0; attempt < 5; attempt++) {
              try {
                await connect(client, 0);
                client.resumedAt = performance.now() - killedAt;
                return;
              } catch {
                await sleep(500);
              }
            }
          }),
        );
      }
    };
    await drive(KILL_SECONDS, killB);
    await Promise.all(resumptions);
    await sleep(3000);
    const phase2 = latenciesOf(2);

    let lost = 0;
    let duplicated = 0;
    const byUser = new Map(clients.map((c) => [c.userId, c]));
    for (const key of committed.keys()) {
      const split = key.lastIndexOf(":");
      const client = byUser.get(key.slice(0, split));
      const count = client?.received.get(Number(key.slice(split + 1))) ?? 0;
      if (count === 0) lost++;
      if (count > 1) duplicated += count - 1;
    }
    const resumed = clients.filter((c) => c.resumedAt !== null).map((c) => c.resumedAt as number);
    const result = {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model,
        loadBefore: LOAD_BEFORE,
        loadAfter: os.loadavg().map((n) => n.toFixed(2)),
      },
      streams: STREAMS,
      rate: RATE,
      published,
      driverErrors,
      lost,
      duplicated,
      idleStreamKb: perStreamKb,
      /** Opening all streams, 100 at a time, both processes together. */
      openAllMs: Math.round(openMs),
      oneConnectMs: summary(single),
      latencyMs: { steady: summary(phase1), withKill: summary(phase2) },
      resumeAfterKillMs: { ...summary(resumed), clients: clients.filter((c) => c.process === 0).length },
    };
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    writeFileSync(
      path.join(root, "bench", "results", "realtime-postgres.json"),
      `${JSON.stringify(result, null, 2)}\n`,
    );
  } finally {
    for (const client of clients) client.stream?.close();
    for (const app of apps) await app.stop(5000).catch(() => {});
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

await main();
