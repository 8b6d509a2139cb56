import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { campuses } from "./campuses";

/**
 * The mail outbox (spec 1 §3 'Mail request record'): a row is written in the
 * transaction that causes the mail; the worker delivers it with retries.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    campusId: text("campus_id")
      .notNull()
      .references(() => campuses.id),
    kind: text("kind").notNull(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    status: text("status", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** A code mail is worthless once its code expires: stop retrying then. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    index("mail_outbox_due_idx").on(table.status, table.nextAttemptAt),
    index("mail_outbox_to_kind_idx").on(table.to, table.kind, table.createdAt),
  ],
);
