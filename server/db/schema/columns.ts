import { text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { campuses } from "./campuses";

/**
 * The columns most tables share, one spelling each (issue 10: one pattern per thing). Each call
 * makes a fresh builder, as a builder belongs to the one table it is built into. The SQL they
 * make is the same as before they were shared, so drizzle-kit sees no change.
 */

/** A generated uuid key. */
export function idColumn() {
  return uuid("id").primaryKey().defaultRandom();
}

/** The campus a row belongs to: every row carries it (ARCHITECTURE.md, sharding by campus_id). */
export function campusIdColumn() {
  return text("campus_id")
    .notNull()
    .references(() => campuses.id);
}

/** A user the row is about or by: the row goes when the account does. */
export function userIdColumn<TName extends string>(name: TName) {
  return text(name)
    .notNull()
    .references(() => user.id, { onDelete: "cascade" });
}

export function createdAtColumn() {
  return timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
}

/** The list-ordering time of a row that changes (chats, posts, ads). */
export function lastModifiedColumn() {
  return timestamp("last_modified", { withTimezone: true }).notNull().defaultNow();
}
