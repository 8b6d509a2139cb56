import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth";
import * as columns from "./columns";

/**
 * The mail outbox (spec 1 §3 'Mail request record'): a row is written in the
 * transaction that causes the mail; the worker delivers it with retries.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    kind: text("kind").notNull(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    /**
     * 'dropped': a mail composed at send time (decision 0251) found nothing left worth sending
     * (read, deleted or turned off meanwhile).
     */
    status: text("status", { enum: ["pending", "sent", "failed", "dropped"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: columns.time("next_attempt_at").notNull().defaultNow(),
    /** A code mail is worthless once its code expires: stop retrying then. */
    expiresAt: columns.time("expires_at"),
    lastError: text("last_error"),
    /**
     * Decision 0251: the user a mail composed at send time is for (its subject and body are
     * written then, from what is still true); null for mails written when queued.
     */
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    /** Extra headers, e.g. List-Unsubscribe (RFC 8058). */
    headers: jsonb("headers").$type<Record<string, string>>(),
    createdAt: columns.createdAt(),
    sentAt: columns.time("sent_at"),
  },
  (table) => [
    index("mail_outbox_due_idx").on(table.status, table.nextAttemptAt),
    index("mail_outbox_to_kind_idx").on(table.to, table.kind, table.createdAt),
    // Decision 0571: deleting an account removes its mail rows (a cascade on user_id).
    index("mail_outbox_user_idx").on(table.userId),
    // Decision 0251: one pending notification e-mail per user, which later notifications join.
    uniqueIndex("mail_outbox_pending_notification_unique")
      .on(table.userId, table.kind)
      .where(sql`${table.status} = 'pending' and ${table.userId} is not null`),
  ],
);
