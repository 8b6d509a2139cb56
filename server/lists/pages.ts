import { and, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgSelect } from "drizzle-orm/pg-core";
import { type CursorKey, encodeCursor } from "./cursor";

/**
 * Keyset pages (docs/architecture.md rule 4, decision 0081), for every list of every area: the
 * query's end (its conditions, 'after the cursor', newest first as its index is built, one row
 * more than the page), and the page cut from what it returns. The cursor is ./cursor.ts.
 */

/** One page of a list: `nextCursor` is null when this is the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
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
