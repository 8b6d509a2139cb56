// The realtime benchmark (decision 0213). Not a test: run it after a build.
//
//   npx react-router build && npx tsx bench/realtime.ts
//
// Two processes of the built app (`node main.js`) on one PostgreSQL database; STREAMS signed-in
// users, each with one open `GET /events` stream, half on each process, paired into STREAMS / 2
// conversations whose two people are on different processes. A driver sends chat messages at RATE
// per second for SECONDS through the chat domain function the composer's action calls
// (sendMessage, server/chats/messages.ts: permission checks, sending limit, the message, the
// notification and both participants' events in one transaction), each from one person of a
// random conversation to the other. It records, on this process's one clock, the time from
// sendMessage's return (the commit) to the message's `chat` event arriving on the recipient's
// stream, and, for every event of every stream by sequence number, which arrived twice or never.
// Then a second phase at the same rate `kill -9`s process B half-way; its clients reconnect to
// process A with Last-Event-ID, and the same counts say whether anything was lost or duplicated;
// the time from the kill until each client's stream was open again is recorded too. Memory per
// idle stream: each app's memory before and after its streams opened, read by the app itself
// after a forced garbage collection (bench/realtime-probe.cjs, preloaded in the bench only).
//
// Knobs: BENCH_PG (the server; postgres://postgres@127.0.0.1:5432/postgres), BENCH_STREAMS (2000),
// BENCH_RATE (50), BENCH_SECONDS (30), BENCH_KILL_SECONDS (20), BENCH_PORT_A (4196), BENCH_PORT_B (4197).
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { makeSignature } from "better-auth/crypto";
import { inArray } from "drizzle-orm";
import pg from "pg";
import webpush from "web-push";
import { type AppProcess, startAppProcess } from "../scripts/app-process";
import type { Viewer } from "../server/accounts/viewer";
import { getViewerById } from "../server/accounts/viewer";
import { CampusDirectory } from "../server/campuses/directory";
import { startConversation } from "../server/chats/conversations";
import { sendMessage } from "../server/chats/messages";
import { systemClock } from "../server/clock";
import { loadConfig } from "../server/config";
import type { AppContext } from "../server/context";
import { wrapPool } from "../server/db/client";
import { realtimeCursors, session, user } from "../server/db/schema";
import { createLogger } from "../server/logger";
import { createRecordingTransport } from "../server/mail/transport";
import { createMemoryStorage } from "../server/media/storage";
import { createTestPayments } from "../server/payments/payments";
import { createRealtimeHub } from "../server/realtime/hub";
import { openSse, type SseStream } from "../tests/support/sse-client";

const SERVER = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const KILL_SECONDS = Number(process.env.BENCH_KILL_SECONDS ?? 20);
const PORTS = [Number(process.env.BENCH_PORT_A ?? 4196), Number(process.env.BENCH_PORT_B ?? 4197)] as const;
const SECRET = "realtime-bench-secret-0123456789abcdef";
const root = path.resolve(import.meta.dirname, "..");
const load = () => os.loadavg().map((n) => n.toFixed(2));
const LOAD_BEFORE = load();

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

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
}

interface Client {
  userId: string;
  cookie: string;
  process: 0 | 1;
  stream: SseStream | null;
  lastId: string | null;
  /** The user's sequence number when the streams opened (what a page's loader would have given). */
  startSeq: number;
  /** Every event's sequence number received, with how many times: to count losses and duplicates. */
  received: Map<number, number>;
  resumedAt: number | null;
}

interface Conversation {
  chatId: string;
  people: [Client, Client];
}

async function main() {
  const database = `cbs_bench_realtime_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const url = new URL(SERVER);
  url.pathname = `/${database}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "cbs-bench-realtime-"));
  const probeDir = path.join(dataDir, "probe");
  mkdirSync(probeDir);
  const apps: AppProcess[] = [];
  const handle = wrapPool(new pg.Pool({ connectionString: url.toString(), max: 8 }));
  const clients: Client[] = [];
  const conversations: Conversation[] = [];
  /** messageId → when sendMessage returned (its transaction committed), and to whom. */
  const committed = new Map<string, { at: number; to: Client; phase: 1 | 2 }>();
  /** `${userId}:${messageId}` → when that participant's `chat` event of it first arrived. */
  const arrived = new Map<string, number>();
  let phase: 1 | 2 = 1;
  const latenciesOf = (which: 1 | 2) =>
    [...committed].flatMap(([messageId, sent]) => {
      const at = arrived.get(`${sent.to.userId}:${messageId}`);
      return sent.phase !== which || at === undefined ? [] : [at - sent.at];
    });

  /** The app's own reading after a forced collection (bench/realtime-probe.cjs), and its RSS from /proc before it. */
  const probe = async (app: AppProcess): Promise<Memory & { rssUncollected: number }> => {
    const rssUncollected = rssKb(app.pid) * 1024;
    const file = path.join(probeDir, `${app.pid}.json`);
    rmSync(file, { force: true });
    if (app.pid) process.kill(app.pid, "SIGUSR2");
    for (let n = 0; n < 100 && !existsSync(file); n++) await sleep(100);
    const read = JSON.parse(readFileSync(file, "utf8")) as Memory;
    return { rss: read.rss, heapUsed: read.heapUsed, external: read.external, rssUncollected };
  };

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
            // One process per app (decision 0290 would fork one per core): what `kill -9` ends is the one holding the streams.
            WORKERS: "1",
            // The notification e-mails of the bench's messages fall due after the run: the apps'
            // e-mail job is not what this measures, and would render thousands mid-run.
            NOTIFICATION_EMAIL_DELAY: "3600",
            // The bench's memory probe only (see its file): not how the app runs.
            NODE_OPTIONS: `--expose-gc --require ${path.join(root, "bench", "realtime-probe.cjs")}`,
            BENCH_PROBE_DIR: probeDir,
          },
          port,
          output: path.join(root, ".tmp", `${name}.log`),
          name,
        }),
      );
    }
    const [a, b] = apps as [AppProcess, AppProcess];

    // The driver's context on the same database: sendMessage as the chat page's action calls it.
    const config = loadConfig({
      APP_SECRET: SECRET,
      DATA_DIR: path.join(dataDir, "driver"),
      // The notifications the driver writes schedule their e-mails by this (see the apps' env).
      NOTIFICATION_EMAIL_DELAY: "3600",
      ...(() => {
        const keys = webpush.generateVAPIDKeys();
        return { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey };
      })(),
    });
    const campuses = new CampusDirectory(handle.db, {});
    await campuses.refresh();
    const ctx: AppContext = {
      config,
      db: handle.db,
      database: handle,
      mail: createRecordingTransport(),
      storage: createMemoryStorage(),
      clock: systemClock,
      log: createLogger("silent"),
      campuses,
      // Never subscribed to: the driver only writes.
      realtime: createRealtimeHub({
        database: handle,
        log: createLogger("silent"),
        maxStreams: 0,
        maxStreamsPerUser: 0,
      }),
      wakeMailWorker: () => {},
      payments: createTestPayments({ webhookSecret: "whsec_bench", readSession: async () => null }),
    };

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
          schoolVerified: true,
          schoolEmail: `bench${n}@ou.edu`,
          profileSetUp: true,
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
          startSeq: 0,
          received: new Map(),
          resumedAt: null,
        });
      }
    }
    const viewers = new Map<string, Viewer>();
    for (const client of clients) {
      const viewer = await getViewerById(ctx, client.userId);
      if (!viewer) throw new Error(`no viewer ${client.userId}`);
      viewers.set(client.userId, viewer);
    }
    console.log(`Starting ${STREAMS / 2} conversations (each between a user on A and one on B)…`);
    for (let start = 0; start + 1 < clients.length; start += 20) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const first = clients[start + 2 * i];
          const second = clients[start + 2 * i + 1];
          if (!first || !second) return;
          const { chatId } = await startConversation(ctx, viewers.get(first.userId) ?? null, {
            recipientId: second.userId,
            text: "Is it still available?",
          });
          conversations.push({ chatId, people: [first, second] });
        }),
      );
    }
    // Each stream starts from its user's number now, as a page's loader hands it over.
    const cursors = await handle.db
      .select({ userId: realtimeCursors.userId, seq: realtimeCursors.lastSeq })
      .from(realtimeCursors)
      .where(
        inArray(
          realtimeCursors.userId,
          clients.map((c) => c.userId),
        ),
      );
    const startSeqs = new Map(cursors.map((row) => [row.userId, Number(row.seq)]));
    for (const client of clients) {
      client.startSeq = startSeqs.get(client.userId) ?? 0;
      client.lastId = String(client.startSeq);
    }

    // Warm-up: 100 streams opened and closed on each process, so the code and caches a first stream
    // brings in (compiled code, the auth library's) are in the reading before, not counted per stream.
    for (const app of apps) {
      const warm = clients
        .slice(0, 100)
        .map((client) => openSse(app.url("/events"), { cookie: client.cookie, lastEventId: "999999999" }));
      await Promise.all(warm.map((stream) => stream.until((frames) => frames.length > 0)));
      for (const stream of warm) stream.close();
    }
    await sleep(5000);
    const memoryBefore = await Promise.all(apps.map(probe));
    const connect = async (client: Client, to: 0 | 1) => {
      const app = apps[to] as AppProcess;
      const stream = openSse(app.url("/events"), {
        cookie: client.cookie,
        lastEventId: client.lastId ?? "0",
        onFrame(frame) {
          const at = performance.now();
          if (frame.id === null || frame.event === "reset") return;
          client.lastId = frame.id;
          const seq = Number(frame.id);
          client.received.set(seq, (client.received.get(seq) ?? 0) + 1);
          if (frame.event !== "chat") return;
          const data = JSON.parse(frame.data) as { kind?: string; messageId?: string };
          if (data.kind !== "message" || !data.messageId) return;
          const key = `${client.userId}:${data.messageId}`;
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
    await sleep(20_000);
    const memoryAfter = await Promise.all(apps.map(probe));
    const perStream = (pick: (m: Memory & { rssUncollected: number }) => number) =>
      memoryAfter.map(
        (after, n) =>
          Math.round(((pick(after) - pick(memoryBefore[n] ?? after)) / 1024 / (STREAMS / 2)) * 10) / 10,
      );
    const idleStreamKb = {
      rssAfterCollection: perStream((m) => m.rss),
      heapAndExternalAfterCollection: perStream((m) => m.heapUsed + m.external),
      rssUncollected: perStream((m) => m.rssUncollected),
      load: load(),
    };
    console.log(`Memory per idle stream (kB): ${JSON.stringify(idleStreamKb)}`);
    /**
     * One connect's own time: 50 more streams opened and closed one after another on process A,
     * each until its first frame (a Last-Event-ID from the future gets 'reset' once the stream is
     * subscribed: session lookup, caps, LISTEN check and the starting-point query all done).
     */
    const single: number[] = [];
    for (let n = 0; n < 50; n++) {
      const client = clients[n] as Client;
      const started = performance.now();
      const probeStream = openSse(a.url("/events"), { cookie: client.cookie, lastEventId: "999999999" });
      await probeStream.until((frames) => frames.length > 0);
      single.push(performance.now() - started);
      probeStream.close();
    }

    let sent = 0;
    let driverErrors = 0;
    const errors = new Map<string, number>();
    const sendOne = async () => {
      const conversation = conversations[Math.floor(Math.random() * conversations.length)] as Conversation;
      const [from, to] = Math.random() < 0.5 ? conversation.people : [...conversation.people].reverse();
      if (!from || !to) return;
      const n = sent++;
      try {
        const { messageId } = await sendMessage(ctx, viewers.get(from.userId) ?? null, conversation.chatId, {
          text: `Bench message ${n}`,
        });
        committed.set(messageId, { at: performance.now(), to, phase });
      } catch (error) {
        driverErrors++;
        const key = error instanceof Error ? error.message : String(error);
        errors.set(key, (errors.get(key) ?? 0) + 1);
      }
    };
    /** Sends at RATE for `seconds` on a fixed schedule (not waiting for the previous commit). */
    const drive = async (seconds: number, midway?: () => void) => {
      const total = Math.round(seconds * RATE);
      const start = performance.now();
      const inFlight: Promise<void>[] = [];
      for (let n = 0; n < total; n++) {
        const due = start + (n * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        if (midway && n === Math.floor(total / 2)) midway();
        inFlight.push(sendOne());
      }
      await Promise.all(inFlight);
    };

    console.log(`Phase 1: ${RATE} messages/s for ${SECONDS} s…`);
    const loadPhase1 = load();
    await drive(SECONDS);
    await sleep(2000);
    const phase1 = latenciesOf(1);

    console.log(`Phase 2: ${RATE} messages/s for ${KILL_SECONDS} s, kill -9 of process B half-way…`);
    phase = 2;
    const loadPhase2 = load();
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

    // Every message: both participants' `chat` events arrived.
    let messagesLost = 0;
    for (const [messageId, { to }] of committed) {
      const conversation = conversations.find((c) => c.people.includes(to));
      for (const person of conversation?.people ?? []) {
        if (!arrived.has(`${person.userId}:${messageId}`)) messagesLost++;
      }
    }
    // Every event of every user (messages, notifications, the setup's), by sequence number:
    // each one from the stream's start to the user's last number arrived exactly once.
    const finals = await handle.db
      .select({ userId: realtimeCursors.userId, seq: realtimeCursors.lastSeq })
      .from(realtimeCursors)
      .where(
        inArray(
          realtimeCursors.userId,
          clients.map((c) => c.userId),
        ),
      );
    const finalSeqs = new Map(finals.map((row) => [row.userId, Number(row.seq)]));
    let events = 0;
    let lost = 0;
    let duplicated = 0;
    for (const client of clients) {
      const last = finalSeqs.get(client.userId) ?? 0;
      for (let seq = client.startSeq + 1; seq <= last; seq++) {
        events++;
        const count = client.received.get(seq) ?? 0;
        if (count === 0) lost++;
        if (count > 1) duplicated += count - 1;
      }
    }
    const resumed = clients.filter((c) => c.resumedAt !== null).map((c) => c.resumedAt as number);
    const result = {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model,
        loadBefore: LOAD_BEFORE,
        loadPhase1,
        loadPhase2,
        loadAfter: load(),
      },
      driver: "sendMessage (server/chats/messages.ts), as the chat page's send action",
      streams: STREAMS,
      conversations: conversations.length,
      rate: RATE,
      messagesSent: committed.size,
      driverErrors,
      driverErrorMessages: Object.fromEntries(errors),
      /** Messages whose `chat` event did not reach one of the two participants. */
      messagesLost,
      /** Every event of every stream, by sequence number (messages, notifications). */
      events,
      lost,
      duplicated,
      idleStreamKb,
      memory: { before: memoryBefore, after: memoryAfter },
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
    await ctx.realtime.close();
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
