import { setTimeout as delay } from "node:timers/promises";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { realtimePresence, realtimeProcesses } from "../db/schema";
import { createLogger } from "../logger";
import { createRealtimeHub, type HubOptions, type RealtimeHub, type RealtimeSink } from "./hub";
import { createPresence, REALTIME_PRESENCE_STALE_MS, usersWithLiveStreams } from "./presence";

// Decision 0331: who reads live, across app processes. Each hub stands for one process (its
// own listening connection and process row) on one database: PGlite, or PostgreSQL with
// DATABASE_URL, where the two hubs are two processes in all but the operating system's sense.

let t: TestContext;
const hubs: RealtimeHub[] = [];

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  await t.close();
});

const quiet: RealtimeSink = { event() {}, reset() {}, end() {} };

function appProcess(options: Partial<HubOptions> = {}): RealtimeHub {
  const hub = createRealtimeHub({
    database: t.ctx.database,
    log: createLogger("silent"),
    maxStreams: 10,
    maxStreamsPerUser: 10,
    presenceLingerMs: 0,
    ...options,
  });
  hubs.push(hub);
  return hub;
}

async function open(hub: RealtimeHub, userId: string) {
  const result = await hub.subscribe(userId, 0, quiet);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.subscription;
}

async function isLive(userId: string): Promise<boolean> {
  return (await usersWithLiveStreams(t.ctx.db, [userId])).has(userId);
}

/** Waits for what a process writes after a stream closed (in the background, by design). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await delay(20);
}

describe("live stream presence across processes (decision 0331)", () => {
  it("counts a user's streams in every process, and no longer once the last one closed", async () => {
    const [a, b] = [appProcess(), appProcess()];
    const kim = await createTestMember(t);
    const lee = await createTestMember(t);
    expect(await isLive(kim.id)).toBe(false);
    const inA = await open(a, kim.id);
    const inB = await open(b, kim.id);
    expect(await isLive(kim.id)).toBe(true);
    expect(await isLive(lee.id)).toBe(false);

    inA.close();
    // Give process A every chance to write its close: Kim still reads live in process B.
    await until(async () => (await presenceRows(kim.id)) === 1);
    expect(await isLive(kim.id)).toBe(true);
    inB.close();
    await until(async () => !(await isLive(kim.id)));
    expect(await presenceRows(kim.id)).toBe(0);
  });

  it("keeps a user present through a reconnect, and forgets a process that shut down", async () => {
    const hub = appProcess({ presenceLingerMs: 60_000 });
    const max = await createTestMember(t);
    const first = await open(hub, max.id);
    first.close();
    expect(await isLive(max.id)).toBe(true);
    await open(hub, max.id);
    expect(await isLive(max.id)).toBe(true);
    await hub.close();
    expect(await isLive(max.id)).toBe(false);
  });

  it("stops counting a process that stopped beating (killed with -9)", async () => {
    const hub = appProcess();
    const ned = await createTestMember(t);
    await open(hub, ned.id);
    expect(await isLive(ned.id)).toBe(true);
    // As if it had been killed: its last beat long ago (its next beat is seconds away).
    await t.ctx.db
      .update(realtimeProcesses)
      .set({ seenAt: new Date(Date.now() - REALTIME_PRESENCE_STALE_MS - 1000) })
      .where(eq(realtimeProcesses.id, await processOf(ned.id)));
    expect(await isLive(ned.id)).toBe(false);
  });

  it("writes itself again when another process reaped it after a long stall", async () => {
    const hub = appProcess({ presenceHeartbeatMs: 50 });
    const oz = await createTestMember(t);
    await open(hub, oz.id);
    // Its rows go with it (cascade); the next beat finds its row gone and writes what it holds.
    await t.ctx.db.delete(realtimeProcesses).where(eq(realtimeProcesses.id, await processOf(oz.id)));
    await until(() => isLive(oz.id));
  });

  it("asks nothing of the database in a process that never held a stream", async () => {
    // A script's context (a bench, a one-off task) makes a hub and may close its pool without
    // closing the hub: no heartbeat may outlive it, warning every 10 s.
    let statements = 0;
    const counting = new Proxy(t.ctx.db, {
      get(target, key, receiver) {
        if (key === "execute" || key === "delete") statements++;
        return Reflect.get(target, key, receiver);
      },
    });
    const presence = createPresence({ db: counting, log: createLogger("silent"), heartbeatMs: 5 });
    await delay(100);
    expect(statements).toBe(0);
    await presence.close();
    expect(statements).toBe(0);
  });
});

async function presenceRows(userId: string): Promise<number> {
  const rows = await t.ctx.db.select().from(realtimePresence).where(eq(realtimePresence.userId, userId));
  return rows.length;
}

async function processOf(userId: string): Promise<string> {
  const [row] = await t.ctx.db
    .select({ processId: realtimePresence.processId })
    .from(realtimePresence)
    .where(eq(realtimePresence.userId, userId));
  if (!row) throw new Error("no presence written");
  return row.processId;
}
