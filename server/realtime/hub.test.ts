import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { createLogger } from "../logger";
import { pruneRealtimeBacklog } from "./backlog";
import { announceCampusPagesChanged, publishUserEvent, userEventsAfter } from "./events";
import { createRealtimeHub, type RealtimeHub, type RealtimeSink } from "./hub";
import { LISTENER_NAME } from "./listener";

// Decisions 0213 and 0214: what a stream held by the hub receives. Runs on PGlite,
// and on PostgreSQL with DATABASE_URL (there through the hub's own listening connection).

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

type Received = { seq: number; type: string; data?: Record<string, unknown> } | { reset: number } | "ended";

/** A stream's sink that records what it was sent, and lets a test wait for the n-th thing. */
function recordingSink() {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const push = (item: Received) => {
    received.push(item);
    for (const waiter of waiters.filter((w) => received.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const sink: RealtimeSink = {
    event: (event) => push({ seq: event.seq, type: event.type, data: event.data }),
    reset: (seq) => push({ reset: seq }),
    end: () => push("ended"),
  };
  return {
    sink,
    received,
    /** Resolves once `count` things arrived (the test's own timeout fails it otherwise). */
    until(count: number): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
  };
}

/** A marker event for another user, published after the events under test: once it arrives, they would have too. */
async function barrier(hub: RealtimeHub, member: TestMember) {
  const marker = recordingSink();
  const opened = await hub.subscribe(member.id, 0, marker.sink);
  if (!opened.ok) throw new Error("barrier stream refused");
  const seq = await publishUserEvent(t.ctx.db, member.id, { type: "barrier" });
  await marker.until(seq);
  opened.subscription.close();
}

async function subscribe(hub: RealtimeHub, userId: string, after: number, sink: RealtimeSink) {
  const result = await hub.subscribe(userId, after, sink);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.subscription;
}

describe("the realtime hub (decision 0213)", () => {
  it("delivers an event published in a transaction to the user's streams, once each, and to no one else", async () => {
    const alice = await createTestMember(t);
    const bob = await createTestMember(t);
    const observer = await createTestMember(t);
    const first = recordingSink();
    const second = recordingSink();
    const bobs = recordingSink();
    const streams = [
      await subscribe(t.ctx.realtime, alice.id, 0, first.sink),
      await subscribe(t.ctx.realtime, alice.id, 0, second.sink),
      await subscribe(t.ctx.realtime, bob.id, 0, bobs.sink),
    ];
    await t.ctx.db.transaction((tx) =>
      publishUserEvent(tx, alice.id, { type: "chat", data: { chatId: "c1" } }),
    );
    await publishUserEvent(t.ctx.db, alice.id, { type: "badge" });
    await Promise.all([first.until(2), second.until(2)]);
    await barrier(t.ctx.realtime, observer);
    const expected = [
      { seq: 1, type: "chat", data: { chatId: "c1" } },
      { seq: 2, type: "badge", data: {} },
    ];
    expect(first.received).toEqual(expected);
    expect(second.received).toEqual(expected);
    expect(bobs.received).toEqual([]);
    for (const stream of streams) stream.close();
    expect(t.ctx.realtime.streamCount(alice.id)).toBe(0);
  });

  it("announces nothing for a change that rolls back", async () => {
    const carol = await createTestMember(t);
    const observer = await createTestMember(t);
    const stream = recordingSink();
    const subscription = await subscribe(t.ctx.realtime, carol.id, 0, stream.sink);
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await publishUserEvent(tx, carol.id, { type: "chat", data: { n: "rolled back" } });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await barrier(t.ctx.realtime, observer);
    expect(stream.received).toEqual([]);
    await publishUserEvent(t.ctx.db, carol.id, { type: "chat", data: { n: "kept" } });
    await stream.until(1);
    expect(stream.received).toEqual([{ seq: 1, type: "chat", data: { n: "kept" } }]);
    subscription.close();
  });

  it("replays what came after the stream's Last-Event-ID, then goes on live", async () => {
    const dana = await createTestMember(t);
    for (const n of [1, 2, 3]) await publishUserEvent(t.ctx.db, dana.id, { type: "chat", data: { n } });
    const stream = recordingSink();
    const subscription = await subscribe(t.ctx.realtime, dana.id, 1, stream.sink);
    await stream.until(2);
    await publishUserEvent(t.ctx.db, dana.id, { type: "chat", data: { n: 4 } });
    await stream.until(3);
    expect(
      stream.received.map((item) => (typeof item === "object" && "seq" in item ? item.seq : item)),
    ).toEqual([2, 3, 4]);
    expect(subscription.lastSeq).toBe(4);
    subscription.close();
  });

  it("sends 'reset' and the current number when the stream asks for more than the backlog holds", async () => {
    const erin = await createTestMember(t);
    for (const n of [1, 2, 3, 4, 5]) await publishUserEvent(t.ctx.db, erin.id, { type: "chat", data: { n } });
    await pruneRealtimeBacklog(t.ctx.db, { now: new Date(), maxPerUser: 2 });
    const behind = recordingSink();
    const subscription = await subscribe(t.ctx.realtime, erin.id, 1, behind.sink);
    // Within the backlog, replay goes on as usual.
    const within = recordingSink();
    const withinSubscription = await subscribe(t.ctx.realtime, erin.id, 3, within.sink);
    await within.until(2);
    await publishUserEvent(t.ctx.db, erin.id, { type: "chat", data: { n: 6 } });
    await behind.until(2);
    await within.until(3);
    expect(behind.received).toEqual([{ reset: 5 }, { seq: 6, type: "chat", data: { n: 6 } }]);
    expect(
      within.received.map((item) => (typeof item === "object" && "seq" in item ? item.seq : item)),
    ).toEqual([4, 5, 6]);
    subscription.close();
    withinSubscription.close();
  });

  it("sends 'reset' to a stream claiming a number its user never reached", async () => {
    const fay = await createTestMember(t);
    await publishUserEvent(t.ctx.db, fay.id, { type: "chat" });
    const stream = recordingSink();
    const subscription = await subscribe(t.ctx.realtime, fay.id, 99, stream.sink);
    await publishUserEvent(t.ctx.db, fay.id, { type: "chat" });
    await stream.until(2);
    expect(stream.received).toEqual([{ reset: 1 }, { seq: 2, type: "chat", data: {} }]);
    subscription.close();
  });

  it("caps the streams per user and per process, and frees a place when a stream closes", async () => {
    const hub = createRealtimeHub({
      database: t.ctx.database,
      log: createLogger("silent"),
      maxStreams: 3,
      maxStreamsPerUser: 2,
    });
    try {
      const gil = await createTestMember(t);
      const hal = await createTestMember(t);
      const a = await subscribe(hub, gil.id, 0, recordingSink().sink);
      await subscribe(hub, gil.id, 0, recordingSink().sink);
      expect(await hub.subscribe(gil.id, 0, recordingSink().sink)).toEqual({
        ok: false,
        reason: "user-limit",
      });
      await subscribe(hub, hal.id, 0, recordingSink().sink);
      expect(await hub.subscribe(hal.id, 0, recordingSink().sink)).toEqual({
        ok: false,
        reason: "process-limit",
      });
      a.close();
      a.close();
      expect(hub.streamCount()).toBe(2);
      expect((await hub.subscribe(hal.id, 0, recordingSink().sink)).ok).toBe(true);
    } finally {
      await hub.close();
    }
  });

  it("ends every stream when it closes, and opens no more", async () => {
    const hub = createRealtimeHub({
      database: t.ctx.database,
      log: createLogger("silent"),
      maxStreams: 10,
      maxStreamsPerUser: 10,
    });
    const ivy = await createTestMember(t);
    const stream = recordingSink();
    await subscribe(hub, ivy.id, 0, stream.sink);
    await hub.close();
    expect(stream.received).toEqual(["ended"]);
    expect(await hub.subscribe(ivy.id, 0, recordingSink().sink)).toEqual({ ok: false, reason: "closed" });
    expect(hub.streamCount()).toBe(0);
  });
});

/** A hub standing for another app process: on PostgreSQL, with a listening connection of its own. */
function secondHub(reconnectMs?: number): RealtimeHub {
  return createRealtimeHub({
    database: t.ctx.database,
    log: createLogger("silent"),
    maxStreams: 10,
    maxStreamsPerUser: 10,
    reconnectMs,
  });
}

/** What a hub's campus watcher was told, and a way to wait for the n-th. */
function campusWatcher() {
  const told: (string | null)[] = [];
  let waiting: { count: number; resolve: () => void } | null = null;
  return {
    told,
    onChange(campusId: string | null) {
      told.push(campusId);
      if (waiting && told.length >= waiting.count) waiting.resolve();
    },
    until(count: number): Promise<void> {
      if (told.length >= count) return Promise.resolve();
      return new Promise((resolve) => {
        waiting = { count, resolve };
      });
    },
  };
}

describe("page changes on the same listening connection (decision 0360)", () => {
  it("tells every process's watcher which campus's pages changed, or that all did, and nothing after close", async () => {
    const other = secondHub();
    const here = campusWatcher();
    const there = campusWatcher();
    try {
      await t.ctx.realtime.watchCampusPages(here.onChange);
      await other.watchCampusPages(there.onChange);
      // A change that rolls back announces nothing; the next one is the first they hear.
      await t.ctx.db
        .transaction(async (tx) => {
          await announceCampusPagesChanged(tx, "rolled-back");
          throw new Error("roll back");
        })
        .catch(() => {});
      await announceCampusPagesChanged(t.ctx.db, "ou");
      await announceCampusPagesChanged(t.ctx.db, null);
      await here.until(2);
      await there.until(2);
      expect(here.told).toEqual(["ou", null]);
      expect(there.told).toEqual(["ou", null]);
    } finally {
      await other.close();
    }
    await announceCampusPagesChanged(t.ctx.db, "ut");
    await here.until(3);
    expect(here.told).toEqual(["ou", null, "ut"]);
    expect(there.told).toEqual(["ou", null]);
  });
});

describe.runIf(process.env.DATABASE_URL)("the listening connection on PostgreSQL", () => {
  it("listens again after losing its connection and delivers what was announced meanwhile", async () => {
    const hub = createRealtimeHub({
      database: t.ctx.database,
      log: createLogger("silent"),
      maxStreams: 10,
      maxStreamsPerUser: 10,
      // Long enough for the two events below to be announced while nobody listens.
      reconnectMs: 500,
    });
    try {
      const lee = await createTestMember(t);
      const stream = recordingSink();
      await subscribe(hub, lee.id, 0, stream.sink);
      // As a server restart or a dropped network would: the listener's session ends.
      const listeners = sql`from pg_stat_activity where application_name = ${LISTENER_NAME} and datname = current_database()`;
      await t.ctx.db.execute(sql`select pg_terminate_backend(pid) ${listeners}`);
      for (;;) {
        const left = (await t.ctx.db.execute(sql`select count(*)::int as n ${listeners}`)) as unknown as {
          rows: { n: number }[];
        };
        if (left.rows[0]?.n === 0) break;
      }
      await publishUserEvent(t.ctx.db, lee.id, { type: "chat", data: { n: 1 } });
      await publishUserEvent(t.ctx.db, lee.id, { type: "chat", data: { n: 2 } });
      await stream.until(2);
      expect(stream.received).toEqual([
        { seq: 1, type: "chat", data: { n: 1 } },
        { seq: 2, type: "chat", data: { n: 2 } },
      ]);
    } finally {
      await hub.close();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)("page changes after the listening connection was lost", () => {
  it("tells the watcher that every campus changed once it listens again (announcements meanwhile were lost)", async () => {
    const hub = secondHub(300);
    const watcher = campusWatcher();
    try {
      await hub.watchCampusPages(watcher.onChange);
      const pid = (await t.ctx.db.execute(
        sql`select pid from pg_stat_activity where application_name = ${LISTENER_NAME} and datname = current_database() order by backend_start desc limit 1`,
      )) as unknown as { rows: { pid: number }[] };
      await t.ctx.db.execute(sql`select pg_terminate_backend(${pid.rows[0]?.pid})`);
      await watcher.until(1);
      expect(watcher.told).toEqual([null]);
      await announceCampusPagesChanged(t.ctx.db, "ou");
      await watcher.until(2);
      expect(watcher.told).toEqual([null, "ou"]);
    } finally {
      await hub.close();
    }
  });
});

describe("the bounded backlog (decision 0214)", () => {
  it("keeps the latest events per user and drops those older than the age limit", async () => {
    const jo = await createTestMember(t);
    const kim = await createTestMember(t);
    for (let n = 0; n < 6; n++) await publishUserEvent(t.ctx.db, jo.id, { type: "chat" });
    await publishUserEvent(t.ctx.db, kim.id, { type: "chat" });
    await pruneRealtimeBacklog(t.ctx.db, { now: new Date(), maxPerUser: 4 });
    expect((await userEventsAfter(t.ctx.db, jo.id, 0)).map((e) => e.seq)).toEqual([3, 4, 5, 6]);
    expect((await userEventsAfter(t.ctx.db, kim.id, 0)).map((e) => e.seq)).toEqual([1]);
    // Eight days on, everything is past the seven-day limit; the counters keep their numbers.
    await pruneRealtimeBacklog(t.ctx.db, { now: new Date(Date.now() + 8 * 86_400_000) });
    expect(await userEventsAfter(t.ctx.db, jo.id, 0)).toEqual([]);
    expect(await publishUserEvent(t.ctx.db, jo.id, { type: "chat" })).toBe(7);
  });
});
