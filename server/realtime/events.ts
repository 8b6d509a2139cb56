import { and, eq, gt, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { realtimeCursors, realtimeEvents } from "../db/schema";

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
 * announces nothing). Returns the event's sequence number.
 */
export async function publishUserEvent(tx: Queryable, userId: string, event: RealtimeEvent): Promise<number> {
  const [cursor] = await tx
    .insert(realtimeCursors)
    .values({ userId, lastSeq: 1 })
    .onConflictDoUpdate({
      target: realtimeCursors.userId,
      set: { lastSeq: sql`${realtimeCursors.lastSeq} + 1` },
    })
    .returning({ seq: realtimeCursors.lastSeq });
  const seq = cursor?.seq;
  if (seq === undefined) throw new Error("realtime: no sequence number was taken");
  await tx.insert(realtimeEvents).values({ userId, seq, type: event.type, data: event.data ?? {} });
  await tx.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${`${userId}:${seq}`})`);
  return seq;
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
