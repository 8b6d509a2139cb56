import { and, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgSelect } from "drizzle-orm/pg-core";
import { PostError } from "./errors";
import { POST_MESSAGES } from "./schemas";

/**
 * Keyset pagination (docs/architecture.md rule 4, decision 0081): a page ends at the
 * (time, id) of its last row, and the next page starts strictly after it. The
 * time travels as PostgreSQL's own microsecond text, so a row written by
 * `now()` compares exactly; JavaScript's Date would round it to milliseconds.
 */
export interface CursorKey {
  /** ISO-8601 UTC with microseconds, e.g. 2026-03-02T15:00:00.123456Z. */
  time: string;
  /** The tie-breaker: a post id (uuid) or a user id. */
  id: string;
}

/** One page of a list: `nextCursor` is null when this is the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * docs/product/outages-and-errors.md: the pattern alone lets through dates PostgreSQL refuses to cast
 * (month 13, 25 o'clock, year 0), which made a tampered cursor a 500. A real time
 * reads back the same through Date (to the second; Date keeps milliseconds only), so
 * 2026-02-30, which Date rolls over to March 2, is refused too (docs/product/outages-and-errors.md). Every cursor
 * that carries a time checks it here (the search's too, server/search/posts.ts).
 */
export function isCursorTime(time: unknown): time is string {
  if (typeof time !== "string") return false;
  if (!TIME_PATTERN.test(time) || time.startsWith("0000")) return false;
  const parsed = new Date(time);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 19) === time.slice(0, 19);
}

/** A timestamp column as cursor text (UTC, microseconds). */
export function cursorTime(column: AnyPgColumn): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** Opaque to clients: base64url of the key. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify([key.time, key.id]), "utf8").toString("base64url");
}

/** The key of a cursor a client sent back; a tampered one is refused, never passed to SQL as is. */
export function decodeCursor(cursor: string, idKind: "uuid" | "text" = "uuid"): CursorKey {
  const refuse = () => new PostError("invalid-input", POST_MESSAGES.badCursor);
  if (cursor.length > 200) throw refuse();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(value) || value.length !== 2) throw refuse();
  const [time, id] = value as unknown[];
  if (!isCursorTime(time)) throw refuse();
  if (typeof id !== "string" || !(idKind === "uuid" ? UUID_PATTERN : ID_PATTERN).test(id)) throw refuse();
  return { time, id };
}

/**
 * The condition 'after this cursor' for a list ordered by (time desc, id desc):
 * a row comparison, which a btree index on (…, time desc, id desc) serves as a range.
 */
function after(
  timeColumn: AnyPgColumn,
  idColumn: AnyPgColumn,
  key: CursorKey | { time: Placeholder; id: Placeholder },
  idKind: "uuid" | "text",
): SQL {
  return idKind === "uuid"
    ? sql`(${timeColumn}, ${idColumn}) < (${key.time}::timestamptz, ${key.id}::uuid)`
    : sql`(${timeColumn}, ${idColumn}) < (${key.time}::timestamptz, ${key.id}::text)`;
}

/**
 * ORDER BY for a list newest first. Spelled `desc nulls last` because that is how
 * the indexes are built (Drizzle's `.desc()`), and PostgreSQL matches an index to
 * an ORDER BY only when the null ordering agrees too (plain `desc` means nulls first).
 */
function newestFirst(timeColumn: AnyPgColumn, idColumn: AnyPgColumn): SQL[] {
  return [sql`${timeColumn} desc nulls last`, sql`${idColumn} desc nulls last`];
}

/** A list ordered newest first by (time, id), as its index is built; `idKind` is the type of the id. */
export interface Keyset {
  time: AnyPgColumn;
  id: AnyPgColumn;
  idKind: "uuid" | "text";
}

/**
 * The end of every keyset list query (docs/architecture.md rule 4): the list's own conditions and
 * 'after the cursor', newest first in the index's order, `limit` rows (a page, and the one row
 * more that toPage reads as 'another page exists'). `query` is the list's select and joins,
 * made `$dynamic()`; the key and the limit may be placeholders of a prepared statement.
 */
export function keysetPage<Q extends PgSelect>(
  query: Q,
  keyset: Keyset,
  page: {
    where: (SQL | undefined)[];
    key: CursorKey | { time: Placeholder; id: Placeholder } | null;
    limit: number | Placeholder;
  },
): Q {
  return query
    .where(and(...page.where, page.key ? after(keyset.time, keyset.id, page.key, keyset.idKind) : undefined))
    .orderBy(...newestFirst(keyset.time, keyset.id))
    .limit(page.limit);
}

/** The page size asked for, within 1…50; the list's own size when none. */
export function pageSize(asked: number | undefined, fallback: number): number {
  if (asked === undefined || !Number.isFinite(asked)) return fallback;
  return Math.min(50, Math.max(1, Math.trunc(asked)));
}

/**
 * Cuts a page fetched with one extra row: that row's presence says another page
 * exists, and the last row kept gives the cursor.
 */
export function toPage<R extends { cursorTime: string }, T>(
  rows: R[],
  size: number,
  keyOf: (row: R) => string,
  view: (row: R) => T,
): Page<T> {
  const kept = rows.slice(0, size);
  const last = kept[kept.length - 1];
  const nextCursor =
    rows.length > size && last ? encodeCursor({ time: last.cursorTime, id: keyOf(last) }) : null;
  return { items: kept.map(view), nextCursor };
}
