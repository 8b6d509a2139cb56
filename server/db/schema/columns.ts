import { text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { campuses } from "./campuses";

/**
 * The columns most tables share, one spelling each (decision 0300: one pattern per thing). Each call
 * makes a fresh builder, as a builder belongs to the one table it is built into. The SQL they
 * make is the same as before they were shared, so drizzle-kit sees no change.
 */

/** A generated uuid key. */
export function id() {
  return uuid("id").primaryKey().defaultRandom();
}

/** The campus a row belongs to: every row carries it (docs/architecture.md, sharding by campus_id). */
export function campusId() {
  return text("campus_id")
    .notNull()
    .references(() => campuses.id);
}

/** A user the row is about or by: the row goes when the account does. */
export function userRef<TName extends string>(name: TName) {
  return text(name)
    .notNull()
    .references(() => user.id, { onDelete: "cascade" });
}

/** A point in time: always with its time zone, so every process reads the same instant. */
export function time<TName extends string>(name: TName) {
  return timestamp(name, { withTimezone: true });
}

export function createdAt() {
  return time("created_at").notNull().defaultNow();
}

/** The list-ordering time of a row that changes (chats, posts, ads). */
export function lastModified() {
  return time("last_modified").notNull().defaultNow();
}
