import { randomUUID } from "node:crypto";
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { realtimePresence, realtimeProcesses } from "../db/schema";
import type { Logger } from "../logger";

/**
 * Decision 0331: who has a live stream open, across every app process (no web push
 * to someone reading live). The process holding a user's streams writes one row when the user's
 * first stream opens there and deletes it a moment after the last one closes; the process
 * itself beats once per PRESENCE_HEARTBEAT_MS (one row update, however many streams it holds).
 * A user counts as live while a row of theirs belongs to a process seen within
 * REALTIME_PRESENCE_STALE_MS, so a process killed with -9 stops counting by itself.
 */

/** How often a process proves it is alive. */
export const PRESENCE_HEARTBEAT_MS = 10_000;
/** A process not seen for this long holds no live stream (three missed beats). */
export const REALTIME_PRESENCE_STALE_MS = 30_000;
/** A process not seen for this long is gone: any process deletes its rows. */
const PROCESS_GONE_MS = 10 * 60_000;
/**
 * A closed stream's user stays present this long, so a reload or a tab handing the stream to
 * another (decision 0212) costs no delete-and-insert; short, as a push in the gap is harmless.
 */
export const PRESENCE_LINGER_MS = 1_000;

/** Of these users, the ones with a live stream open in any process. */
export async function usersWithLiveStreams(db: Queryable, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ userId: realtimePresence.userId })
    .from(realtimePresence)
    .innerJoin(realtimeProcesses, eq(realtimeProcesses.id, realtimePresence.processId))
    .where(
      and(
        inArray(realtimePresence.userId, [...new Set(userIds)]),
        // The database's clock on both sides: the processes' clocks need not agree.
        gt(
          realtimeProcesses.seenAt,
          sql`now() - make_interval(secs => ${REALTIME_PRESENCE_STALE_MS / 1000})`,
        ),
      ),
    );
  return new Set(rows.map((row) => row.userId));
}

/** This process's side: told by the hub when a user's first stream opens and last one closes. */
export interface Presence {
  /** Resolves once the user is recorded as present (or the write failed and was logged). */
  opened(userId: string): Promise<void>;
  closed(userId: string): void;
  /** Stops beating and deletes this process's rows (its users are no longer live here). */
  close(): Promise<void>;
}

interface UserPresence {
  /** Whether the user has a stream here now (after the linger, for a close). */
  wanted: boolean;
  /** Whether the row is written, as far as this process knows. */
  written: boolean;
  /** The write in flight: one at a time per user, so a quick close-and-open cannot end absent. */
  busy: Promise<void> | null;
  linger: NodeJS.Timeout | null;
}

export function createPresence(options: {
  db: Queryable;
  log: Logger;
  heartbeatMs?: number;
  lingerMs?: number;
}): Presence {
  const { db, log } = options;
  const processId = randomUUID();
  const users = new Map<string, UserPresence>();
  let closed = false;
  let beating: Promise<void> | null = null;

  async function write(userId: string, present: boolean): Promise<void> {
    if (present) {
      // The process row comes with the first user (and back after a reaping, see beat()).
      await db.execute(sql`
        with process as (insert into realtime_processes (id) values (${processId}::uuid) on conflict (id) do nothing)
        insert into realtime_presence (user_id, process_id) values (${userId}, ${processId}::uuid)
        on conflict do nothing`);
    } else {
      await db
        .delete(realtimePresence)
        .where(and(eq(realtimePresence.userId, userId), eq(realtimePresence.processId, processId)));
    }
  }

  function reconcile(userId: string, state: UserPresence): Promise<void> {
    if (state.busy) return state.busy.then(() => reconcile(userId, state));
    if (state.wanted === state.written || closed) {
      if (!state.wanted && !state.linger && users.get(userId) === state) users.delete(userId);
      return Promise.resolve();
    }
    const target = state.wanted;
    state.busy = write(userId, target)
      .then(
        () => {
          state.written = target;
        },
        (error: unknown) => {
          // Retried by the next heartbeat; meanwhile a push may reach someone reading live.
          log.warn({ err: error, userId }, "realtime presence: write failed");
        },
      )
      .finally(() => {
        state.busy = null;
      });
    return state.busy.then(() => (state.written === target ? reconcile(userId, state) : undefined));
  }

  /**
   * One statement per beat: this process's row is seen now, and rows of processes long gone are
   * deleted (their presence with them). No row any more (reaped while this process was stalled,
   * or never written): every present user is written again.
   */
  async function beat(): Promise<void> {
    const rows = await db.execute(sql`
      with reaped as (
        delete from realtime_processes
        where seen_at < now() - make_interval(secs => ${PROCESS_GONE_MS / 1000}) and id <> ${processId}::uuid
      )
      update realtime_processes set seen_at = now() where id = ${processId}::uuid returning id`);
    const found = (rows as unknown as { rows: unknown[] }).rows.length > 0;
    for (const [userId, state] of users) {
      if (!found && state.written) state.written = false;
      void reconcile(userId, state);
    }
  }

  // Beats only once someone has been present here: a process (or a script's context) that never
  // holds a stream writes nothing and keeps no timer.
  let timer: NodeJS.Timeout | null = null;
  function startBeating(): void {
    if (timer || closed) return;
    timer = setInterval(() => {
      if (beating || closed) return;
      beating = beat()
        .catch((error: unknown) => log.warn({ err: error }, "realtime presence: heartbeat failed"))
        .finally(() => {
          beating = null;
        });
    }, options.heartbeatMs ?? PRESENCE_HEARTBEAT_MS);
    timer.unref();
  }

  return {
    opened(userId) {
      startBeating();
      let state = users.get(userId);
      if (!state) {
        state = { wanted: true, written: false, busy: null, linger: null };
        users.set(userId, state);
      }
      if (state.linger) {
        clearTimeout(state.linger);
        state.linger = null;
      }
      state.wanted = true;
      return reconcile(userId, state);
    },

    closed(userId) {
      const state = users.get(userId);
      if (!state || state.linger) return;
      const linger = options.lingerMs ?? PRESENCE_LINGER_MS;
      state.linger = setTimeout(() => {
        state.linger = null;
        state.wanted = false;
        void reconcile(userId, state);
      }, linger);
      state.linger.unref();
    },

    async close() {
      if (closed) return;
      closed = true;
      if (!timer) return;
      clearInterval(timer);
      for (const state of users.values()) if (state.linger) clearTimeout(state.linger);
      await beating;
      await Promise.all([...users.values()].map((state) => state.busy));
      users.clear();
      try {
        // The presence rows go with it (cascade).
        await db.delete(realtimeProcesses).where(eq(realtimeProcesses.id, processId));
      } catch (error) {
        log.warn({ err: error }, "realtime presence: could not remove this process; it goes stale by itself");
      }
    },
  };
}
