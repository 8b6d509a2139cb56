import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { UUID_PATTERN } from "../db/ids";
// The refusal every list answers a tampered cursor with (posts' catalogue holds the words).
import { PostError } from "../posts/errors";
import { POST_MESSAGES } from "../posts/schemas";

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

const TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

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
