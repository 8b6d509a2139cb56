import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import * as columns from "./columns";

/**
 * Each user's event counter (decision 0210). Taking the next number updates this
 * row, which holds its lock until the writing transaction ends, so two writers
 * for one user commit in the order of their numbers and a reader asking for
 * 'after N' never skips an event that commits late.
 */
export const realtimeCursors = pgTable("realtime_cursors", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  lastSeq: bigint("last_seq", { mode: "number" }).notNull().default(0),
});

/** The per-user event log a stream replays from (Last-Event-ID); a bounded backlog. */
export const realtimeEvents = pgTable(
  "realtime_events",
  {
    userId: columns.userRef("user_id"),
    seq: bigint("seq", { mode: "number" }).notNull(),
    type: text("type").notNull(),
    data: jsonb("data").notNull().default(sql`'{}'::jsonb`),
    createdAt: columns.createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.seq] }),
    index("realtime_events_created_idx").on(table.createdAt),
  ],
);

/**
 * Decision 0331: the app processes that hold live streams, each with the database's time of
 * its last heartbeat. A process that stops beating (killed, frozen, cut off) stops counting
 * after REALTIME_PRESENCE_STALE_MS; any process deletes rows long dead.
 */
export const realtimeProcesses = pgTable("realtime_processes", {
  id: uuid("id").primaryKey(),
  seenAt: columns.time("seen_at").notNull().defaultNow(),
});

/**
 * Decision 0331: which process holds at least one live stream of which user (written when a
 * user's first stream opens in a process and deleted after the last closes, not per heartbeat):
 * the mail worker of any process asks it before sending a web push.
 */
export const realtimePresence = pgTable(
  "realtime_presence",
  {
    userId: columns.userRef("user_id"),
    processId: uuid("process_id")
      .notNull()
      .references(() => realtimeProcesses.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.processId] }),
    index("realtime_presence_process_idx").on(table.processId),
  ],
);
