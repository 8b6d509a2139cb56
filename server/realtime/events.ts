import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { realtimeCursors, realtimeEvents } from "../db/schema";
import { rowsOf } from "./backlog";

/** The one PostgreSQL channel every process listens on; payloads carry ids only (8,000-byte cap). */
export const REALTIME_CHANNEL = "realtime";

/**
 * The second channel of the same listening connection (decision 0360): a campus whose visitors'
 * pages changed, so every process drops its cached pages of it. The payload is the campus id, or
 * `ALL_CAMPUSES` for a change not tied to one campus (an ad started by the payment webhook).
 */
export const PAGE_CACHE_CHANNEL = "page_cache";
/** The payload for every campus: no campus id is "*" (ids are host slugs). */
export const ALL_CAMPUSES = "*";

/** The third channel (decision 0481, TEST_CLOCK=1 only): the test clock's new offset in milliseconds. */
export const TEST_CLOCK_CHANNEL = "test_clock";

/**
 * What a live screen is told. Events carry ids and small facts, never content
 * a reader may not see: the screen refetches what it shows through its loader.
 */
export interface RealtimeEvent {
  type: string;
  data?: Record<string, unknown>;
}

export interface StoredRealtimeEvent {
  seq: number;
  type: string;
  data: Record<string, unknown>;
}

/**
 * Records an event for one user inside the caller's transaction and signals
 * every app process at commit (NOTIFY is transactional: a rolled-back change
 * announces nothing). Returns the event's sequence number. One statement (userEventCtes).
 */
export async function publishUserEvent(tx: Queryable, userId: string, event: RealtimeEvent): Promise<number> {
  const rows = rowsOf<{ seq: number | string }>(
    await tx.execute(sql`
      with realtime_source as (
        select ${userId}::text as user_id, ${event.type}::text as type, ${JSON.stringify(event.data ?? {})}::jsonb as data
      ),
      ${userEventCtes("realtime_source")}
      select seq from realtime_event`),
  );
  const seq = rows[0]?.seq;
  if (seq === undefined) throw new Error("realtime: no sequence number was taken");
  return Number(seq);
}

/**
 * The one way an event is published (decision 0210), as the parts of a statement, for a write
 * that folds its event into its own statement (notify(), decision 0330) as publishUserEvent does:
 * `with <source> as (…), ${userEventCtes("<source>")} select …`. `source` names an earlier CTE
 * with the columns user_id, type and data (jsonb), at most one row per user (the counter's upsert
 * may touch a row once per statement); no row publishes nothing. Each row takes the user's next
 * number under the user's cursor row lock, held to commit, so numbers commit in order and a
 * reader never skips a late commit; the event row and its NOTIFY (ids only) go with it. The CTEs
 * are named realtime_cursor and realtime_event; realtime_event yields (user_id, seq).
 */
export function userEventCtes(source: string): SQL {
  const from = sql.identifier(source);
  return sql`realtime_cursor as (
    insert into realtime_cursors (user_id, last_seq)
    select user_id, 1 from ${from}
    on conflict (user_id) do update set last_seq = realtime_cursors.last_seq + 1
    returning user_id, last_seq
  ),
  realtime_event as (
    insert into realtime_events (user_id, seq, type, data)
    select c.user_id, c.last_seq, s.type, s.data from realtime_cursor c join ${from} s on s.user_id = c.user_id
    returning user_id, seq, pg_notify(${REALTIME_CHANNEL}, user_id || ':' || seq)
  )`;
}

/** The user's latest sequence number: a page's loader returns it so nothing falls between load and subscribe. */
export async function currentUserSeq(db: Queryable, userId: string): Promise<number> {
  const [row] = await db
    .select({ seq: realtimeCursors.lastSeq })
    .from(realtimeCursors)
    .where(eq(realtimeCursors.userId, userId));
  return row?.seq ?? 0;
}

/** Events after a sequence number, oldest first (a stream's replay). */
export async function userEventsAfter(
  db: Queryable,
  userId: string,
  afterSeq: number,
  limit = 500,
): Promise<StoredRealtimeEvent[]> {
  const rows = await db
    .select({ seq: realtimeEvents.seq, type: realtimeEvents.type, data: realtimeEvents.data })
    .from(realtimeEvents)
    .where(and(eq(realtimeEvents.userId, userId), gt(realtimeEvents.seq, afterSeq)))
    .orderBy(realtimeEvents.seq)
    .limit(limit);
  return rows.map((row) => ({ ...row, data: (row.data ?? {}) as Record<string, unknown> }));
}

/**
 * Tells every app process (this one included) that the visitors' pages of a campus, or of every
 * campus (null), changed. Sent after the write committed; its pages are then dropped everywhere
 * (RealtimeHub.watchCampusPages).
 */
export async function announceCampusPagesChanged(db: Queryable, campusId: string | null): Promise<void> {
  await db.execute(sql`select pg_notify(${PAGE_CACHE_CHANNEL}, ${campusId ?? ALL_CAMPUSES})`);
}
