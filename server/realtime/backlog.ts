import { sql } from "drizzle-orm";
import type { Queryable } from "../db/client";

/**
 * Decision 0214: the backlog a stream can replay from is bounded, per user, to
 * the latest BACKLOG_EVENTS events and to BACKLOG_DAYS days. A stream asking for something
 * older is sent 'reset' (server/realtime/hub.ts) and its page reloads its data.
 */
export const BACKLOG_EVENTS = 1000;
export const BACKLOG_DAYS = 7;

/** Any process may run the pruner; one at a time does the work (the others find the lock taken). */
const PRUNE_LOCK_KEY = 0x7265_616c; // "real"

/** Rows deleted per statement, so one round never holds a long transaction. */
const PRUNE_BATCH = 5000;

export interface PruneOptions {
  now: Date;
  maxPerUser?: number;
  maxAgeDays?: number;
}

/**
 * Deletes events beyond the backlog; returns how many, or null when another process was
 * pruning (a transaction-scoped advisory lock, so a process that dies mid-round frees it).
 */
export async function pruneRealtimeBacklog(db: Queryable, options: PruneOptions): Promise<number | null> {
  const maxPerUser = options.maxPerUser ?? BACKLOG_EVENTS;
  const cutoff = new Date(options.now.getTime() - (options.maxAgeDays ?? BACKLOG_DAYS) * 86_400_000);
  let deleted = 0;
  for (;;) {
    const round = await db.transaction(async (tx) => {
      const lock = rowsOf<{ locked: boolean }>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(${PRUNE_LOCK_KEY}) as locked`),
      );
      if (!lock[0]?.locked) return null;
      // Too old (served by realtime_events_created_idx), or more than maxPerUser behind the
      // user's counter (the primary key (user_id, seq) serves the join per user).
      const result = rowsOf<{ n: number }>(
        await tx.execute(sql`
        with doomed as (
          select e.user_id, e.seq from realtime_events e
          where e.created_at < ${cutoff.toISOString()}::timestamptz
          union
          select e.user_id, e.seq from realtime_events e
          join realtime_cursors c on c.user_id = e.user_id
          where e.seq <= c.last_seq - ${maxPerUser}
          limit ${PRUNE_BATCH}
        ), gone as (
          delete from realtime_events e using doomed d
          where e.user_id = d.user_id and e.seq = d.seq
          returning 1
        )
        select count(*)::int as n from gone`),
      );
      return Number(result[0]?.n ?? 0);
    });
    if (round === null) return deleted > 0 ? deleted : null;
    deleted += round;
    if (round < PRUNE_BATCH) return deleted;
  }
}

/** Both drivers answer a raw statement with `{ rows }` (Db is typed over either, so its answer is unknown). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export interface BacklogPruner {
  stop(): Promise<void>;
}

/** Prunes on a timer in this process (as the mail worker delivers); the advisory lock keeps it to one process at a time. */
export function startBacklogPruner(deps: {
  db: Queryable;
  now: () => Date;
  onError: (error: unknown) => void;
  intervalMs?: number;
}): BacklogPruner {
  let running: Promise<void> | null = null;
  const round = () => {
    if (running) return;
    running = pruneRealtimeBacklog(deps.db, { now: deps.now() })
      .then(() => {})
      .catch(deps.onError)
      .finally(() => {
        running = null;
      });
  };
  // Hourly by default: the bound is a ceiling on storage, not something a reader relies on to the minute.
  const timer = setInterval(round, deps.intervalMs ?? 60 * 60 * 1000);
  timer.unref();
  const first = setTimeout(round, 60_000);
  first.unref();
  return {
    async stop() {
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
