import { sql } from "drizzle-orm";
import type { DatabaseHandle, Db } from "../db/client";
import { realtimeCursors, realtimeEvents } from "../db/schema";
import type { Logger } from "../logger";
import {
  ALL_CAMPUSES,
  PAGE_CACHE_CHANNEL,
  REALTIME_CHANNEL,
  type StoredRealtimeEvent,
  TEST_CLOCK_CHANNEL,
  userEventsAfter,
} from "./events";
import { type Listener, pgliteListener, postgresListener } from "./listener";
import { createPresence } from "./presence";

/**
 * The realtime hub of one app process (decision 0213): ONE listening connection
 * per process (`LISTEN realtime`), and the process's open streams by user. A NOTIFY carries
 * only `userId:seq`; the hub then reads that user's new events once from realtime_events and
 * hands each of the user's streams the ones it has not had. Every delivery, the first replay
 * included, goes through one pump per user, so a stream sees its events once and in order.
 * The same connection also listens on `page_cache` (decision 0360): a campus whose visitors'
 * pages changed in some process, so this process's page cache drops them too.
 */

/** Where a stream's events go (the SSE response, or a test's list). */
export interface RealtimeSink {
  event(event: StoredRealtimeEvent): void;
  /** The stream asked for events older than the backlog: the page reloads its data and goes on from `seq`. */
  reset(seq: number): void;
  /** The hub is shutting down: end the stream (the browser reconnects to another process). */
  end(): void;
}

export interface RealtimeSubscription {
  readonly userId: string;
  /** The last sequence number this stream was given. */
  readonly lastSeq: number;
  /** The stream ended: forget it. Idempotent. */
  close(): void;
}

export type SubscribeResult =
  | { ok: true; subscription: RealtimeSubscription }
  | { ok: false; reason: "user-limit" | "process-limit" | "closed" };

export interface RealtimeHub {
  /**
   * Opens a stream for a user from `afterSeq` (Last-Event-ID, or the page's seq): it first
   * receives what it missed (or 'reset' when that is older than the backlog), then live events.
   */
  subscribe(userId: string, afterSeq: number, sink: RealtimeSink): Promise<SubscribeResult>;
  /** Open streams in this process (all users), and of one user. */
  streamCount(userId?: string): number;
  /**
   * Listens now (not with the first stream) and calls `onChange` for every announcement
   * (announceCampusPagesChanged) from any process: a campus id, or null for every campus. Also
   * null after the listening connection came back, as announcements made meanwhile were lost.
   */
  watchCampusPages(onChange: (campusId: string | null) => void): Promise<void>;
  /**
   * Decision 0481 (TEST_CLOCK=1): listens now and calls `onMove` with every offset the test clock
   * is moved to in any process, or null after the listening connection came back (read it again).
   */
  watchClockMoves(onMove: (offsetMs: number | null) => void): Promise<void>;
  /** Ends every stream (sink.end) and refuses new ones; then stops listening. */
  close(): Promise<void>;
}

export interface HubOptions {
  database: DatabaseHandle;
  log: Logger;
  maxStreams: number;
  maxStreamsPerUser: number;
  /** First reconnect delay of the listening connection; doubles up to 30 s. */
  reconnectMs?: number;
  /** How often the listening connection proves it is alive (a dead TCP peer says nothing). */
  pingMs?: number;
  /** Decision 0331 (server/realtime/presence.ts): this process's heartbeat, and how long a user stays present after their last stream. */
  presenceHeartbeatMs?: number;
  presenceLingerMs?: number;
}

/**
 * One stream in the hub, which is also its subscription: one object per open stream, its
 * methods on the prototype (an idle stream should hold little; bench/README.md 'Realtime').
 */
class Stream implements RealtimeSubscription {
  open = true;

  constructor(
    readonly userId: string,
    public lastSeq: number,
    readonly sink: RealtimeSink,
    private readonly release: (stream: Stream) => void,
  ) {}

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.release(this);
  }
}

interface UserStreams {
  streams: Set<Stream>;
  pumping: boolean;
  again: boolean;
  /** The highest number a NOTIFY announced while this user had streams here. */
  notified: number;
}

/** Events read per query while catching a stream up. */
const PAGE = 500;

export function createRealtimeHub(options: HubOptions): RealtimeHub {
  const { database, log } = options;
  const users = new Map<string, UserStreams>();
  let total = 0;
  let closed = false;
  let listener: Listener | null = null;
  const campusWatchers: ((campusId: string | null) => void)[] = [];
  const clockWatchers: ((offsetMs: number | null) => void)[] = [];
  // Decision 0331: who reads live here, for the mail worker of any process.
  const presence = createPresence({
    db: database.db,
    log,
    heartbeatMs: options.presenceHeartbeatMs,
    lingerMs: options.presenceLingerMs,
  });

  /** A stream closed: forget it (the one function every stream's close() calls). */
  const release = (stream: Stream) => {
    total--;
    const current = users.get(stream.userId);
    current?.streams.delete(stream);
    if (current && current.streams.size === 0) {
      presence.closed(stream.userId);
      if (!current.pumping) users.delete(stream.userId);
    }
  };

  const pumpSoon = (userId: string) => {
    void pump(userId);
  };

  async function pump(userId: string): Promise<void> {
    const entry = users.get(userId);
    if (!entry) return;
    if (entry.pumping) {
      entry.again = true;
      return;
    }
    entry.pumping = true;
    try {
      do {
        entry.again = false;
        if (entry.streams.size === 0) break;
        let after = Math.min(...[...entry.streams].map((stream) => stream.lastSeq));
        for (;;) {
          const batch = await userEventsAfter(database.db, userId, after, PAGE);
          for (const stream of entry.streams) deliver(stream, batch);
          const last = batch.at(-1);
          if (batch.length < PAGE || !last) break;
          after = last.seq;
        }
      } while (entry.again && !closed);
    } catch (error) {
      // The database is unreachable: the listener's reconnect resyncs every user; try this one again soon.
      if (!closed) {
        log.warn({ err: error, userId }, "realtime: reading events failed; retrying");
        setTimeout(() => pumpSoon(userId), 1000).unref();
      }
    } finally {
      entry.pumping = false;
      if (entry.streams.size === 0 && users.get(userId) === entry) users.delete(userId);
    }
  }

  function deliver(stream: Stream, batch: StoredRealtimeEvent[]): void {
    if (!stream.open) return;
    for (const event of batch) {
      if (event.seq <= stream.lastSeq) continue;
      // Sequence numbers have no holes (events.ts), except below what the pruner removed.
      if (event.seq !== stream.lastSeq + 1) stream.sink.reset(event.seq - 1);
      stream.sink.event(event);
      stream.lastSeq = event.seq;
    }
  }

  function onMessage(channel: string, payload: string | undefined): void {
    if (channel === REALTIME_CHANNEL) onNotify(payload);
    else if (channel === PAGE_CACHE_CHANNEL && payload) {
      const campusId = payload === ALL_CAMPUSES ? null : payload;
      for (const watcher of campusWatchers) watcher(campusId);
    } else if (channel === TEST_CLOCK_CHANNEL && payload) {
      for (const watcher of clockWatchers) watcher(Number(payload));
    }
  }

  function onNotify(payload: string | undefined): void {
    if (!payload) return;
    const split = payload.lastIndexOf(":");
    const userId = payload.slice(0, split);
    const seq = Number(payload.slice(split + 1));
    const entry = users.get(userId);
    if (!entry || !Number.isFinite(seq)) return;
    entry.notified = Math.max(entry.notified, seq);
    for (const stream of entry.streams) {
      if (stream.lastSeq < seq) {
        pumpSoon(userId);
        return;
      }
    }
  }

  /** After the listening connection came back: anything announced while it was away is read now. */
  function resyncAll(): void {
    for (const userId of users.keys()) pumpSoon(userId);
    for (const watcher of campusWatchers) watcher(null);
    for (const watcher of clockWatchers) watcher(null);
  }

  function ensureListener(): Promise<void> {
    if (!listener) {
      listener = database.pglite
        ? pgliteListener(database.pglite, onMessage)
        : postgresListener(database, onMessage, resyncAll, log, options);
    }
    return listener.ready();
  }

  return {
    async subscribe(userId, afterSeq, sink) {
      if (closed) return { ok: false, reason: "closed" };
      if (total >= options.maxStreams) return { ok: false, reason: "process-limit" };
      if ((users.get(userId)?.streams.size ?? 0) >= options.maxStreamsPerUser) {
        return { ok: false, reason: "user-limit" };
      }
      // Count the stream now, so concurrent subscribes cannot pass the caps together.
      total++;
      const stream = new Stream(userId, afterSeq, sink, release);
      let entry = users.get(userId);
      if (!entry) {
        entry = { streams: new Set(), pumping: false, again: false, notified: 0 };
        users.set(userId, entry);
      }
      entry.streams.add(stream);
      const subscription: RealtimeSubscription = stream;
      // Held out of the pump until its starting point is settled.
      stream.open = false;
      let behind = true;
      try {
        // LISTEN first: whatever commits after this is announced; the pump below reads what came before.
        // Meanwhile the user is recorded as present (a push from now on would tell them twice).
        const [{ current, next }] = await Promise.all([
          ensureListener().then(() => startingPoint(database.db, userId, afterSeq)),
          presence.opened(userId),
        ]);
        if (afterSeq > current) {
          // A number this log never gave (another database, or a forged header): start from now.
          stream.lastSeq = current;
          sink.reset(current);
        } else if (afterSeq < current && next !== afterSeq + 1) {
          // Older than the backlog (decision 0214): the page reloads its data and goes on from now.
          stream.lastSeq = current;
          sink.reset(current);
        }
        behind = stream.lastSeq < current;
      } catch (error) {
        stream.open = true;
        subscription.close();
        throw error;
      }
      stream.open = true;
      if (closed) {
        subscription.close();
        return { ok: false, reason: "closed" };
      }
      // Up to date, and nothing announced since LISTEN (a commit after the starting point's
      // snapshot is announced to this listener): no read needed. This is the common case of a
      // reconnect, and what a herd of reconnecting browsers costs (bench/README.md).
      if (behind || entry.notified > stream.lastSeq) pumpSoon(userId);
      return { ok: true, subscription };
    },

    async watchCampusPages(onChange) {
      if (closed) return;
      campusWatchers.push(onChange);
      await ensureListener();
    },

    async watchClockMoves(onMove) {
      if (closed) return;
      clockWatchers.push(onMove);
      await ensureListener();
    },

    streamCount(userId) {
      if (userId === undefined) return total;
      return users.get(userId)?.streams.size ?? 0;
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const entry of users.values()) {
        for (const stream of entry.streams) {
          if (stream.open) stream.sink.end();
          stream.open = false;
        }
      }
      users.clear();
      total = 0;
      campusWatchers.length = 0;
      clockWatchers.length = 0;
      await Promise.all([listener?.close(), presence.close()]);
    },
  };
}

/**
 * The user's latest number and the first kept event after `afterSeq`, in one query: numbers
 * have no holes, so a first kept event above afterSeq + 1 means the backlog lost the rest.
 */
async function startingPoint(
  db: Db,
  userId: string,
  afterSeq: number,
): Promise<{ current: number; next: number | null }> {
  const [row] = await db
    .select({
      current:
        sql<number>`coalesce((select ${realtimeCursors.lastSeq} from ${realtimeCursors} where ${realtimeCursors.userId} = ${userId}), 0)`.mapWith(
          Number,
        ),
      next: sql<
        number | null
      >`(select min(${realtimeEvents.seq}) from ${realtimeEvents} where ${realtimeEvents.userId} = ${userId} and ${realtimeEvents.seq} > ${afterSeq})`,
    })
    .from(sql`(select 1) as one`);
  return {
    current: row?.current ?? 0,
    next: row?.next === null || row?.next === undefined ? null : Number(row.next),
  };
}
