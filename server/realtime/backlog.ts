import { sql } from "drizzle-orm";
import type { Queryable } from "../db/client";

/**
 * Decision 0214: the backlog a stream can replay from is bounded, per user, to
 * the latest BACKLOG_EVENTS events and to BACKLOG_DAYS days. A stream asking for something
 * older is sent 'reset' (server/realtime/hub.ts) and its page reloads its data.
 */
export const BACKLOG_EVENTS = 1000;
export const BACKLOG_DAYS = 7;

/** Rows deleted per statement, so one round never holds a long transaction. */
const PRUNE_BATCH = 5000;

export interface PruneOptions {
  now: Date;
  maxPerUser?: number;
  maxAgeDays?: number;
}

/**
 * Deletes events beyond the backlog; returns how many. The prune-realtime-backlog job
 * (server/jobs/jobs.ts) runs it in one process at a time, hourly.
 */
export async function pruneRealtimeBacklog(db: Queryable, options: PruneOptions): Promise<number> {
  const maxPerUser = options.maxPerUser ?? BACKLOG_EVENTS;
  const cutoff = new Date(options.now.getTime() - (options.maxAgeDays ?? BACKLOG_DAYS) * 86_400_000);
  let deleted = 0;
  for (;;) {
    // Too old (served by realtime_events_created_idx), or more than maxPerUser behind the
    // user's counter (the primary key (user_id, seq) serves the join per user).
    const result = rowsOf<{ n: number }>(
      await db.execute(sql`
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
    const round = Number(result[0]?.n ?? 0);
    deleted += round;
    if (round < PRUNE_BATCH) return deleted;
  }
}

/** Both drivers answer a raw statement with `{ rows }` (Db is typed over either, so its answer is unknown). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
