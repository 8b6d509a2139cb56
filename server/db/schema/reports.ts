import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import * as columns from "./columns";
import { moderationItems } from "./moderation";

/** Decision 0540: what a student can report (spec 1 §2 'Report' on a profile; a post, a comment, a chat message; a review, decision 0600). */
export const REPORT_TARGET_KINDS = ["post", "comment", "message", "user", "review"] as const;
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number];

/** Decision 0540: the reasons of the report dialog, in its order (labels in server/moderation/rules.shared.ts). */
export const REPORT_REASONS = ["scam", "prohibited", "harassment", "spam", "inappropriate", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/**
 * Decision 0540: one row per reporter and reported thing (a repeat report updates it). `item_id` is
 * the moderation item that groups every report of the thing; `weight` is the reporter's weight when
 * they reported (decision 0542); `outcome` is set when a moderator decides the item ('upheld' or
 * 'dismissed'), and feeds the reporter's accuracy. A chat message's report keeps `snapshot`: that
 * message and the 10 before it, the only chat content staff ever see.
 */
export const reports = pgTable(
  "reports",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    reporterId: columns.userRef("reporter_id"),
    /** The person the report is about: the author of a post, comment or message, or the profile's owner. */
    reportedUserId: text("reported_user_id").references(() => user.id, { onDelete: "cascade" }),
    targetKind: text("target_kind", { enum: REPORT_TARGET_KINDS }).notNull(),
    targetId: text("target_id").notNull(),
    itemId: uuid("item_id")
      .notNull()
      .references(() => moderationItems.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: REPORT_REASONS }).notNull(),
    /** The reporter's optional words, ≤ 1,000 characters, plain text. */
    comment: text("comment"),
    weight: real("weight").notNull().default(1),
    outcome: text("outcome", { enum: ["upheld", "dismissed"] }),
    snapshot: jsonb("snapshot").$type<ReportedMessageSnapshot>(),
    createdAt: columns.createdAt(),
    updatedAt: columns.time("updated_at").notNull().defaultNow(),
  },
  (table) => [
    check(
      "reports_values",
      sql`${table.targetKind} in ('post', 'comment', 'message', 'user', 'review')
        and ${table.reason} in ('scam', 'prohibited', 'harassment', 'spam', 'inappropriate', 'other')
        and (${table.outcome} is null or ${table.outcome} in ('upheld', 'dismissed'))
        and (${table.comment} is null or char_length(${table.comment}) <= 1000)`,
    ),
    uniqueIndex("reports_reporter_target_unique").on(table.reporterId, table.targetKind, table.targetId),
    index("reports_reported_user_idx").on(table.reportedUserId, table.createdAt),
    // Decision 0540: the daily limit counts a reporter's reports of the last day.
    index("reports_reporter_created_idx").on(table.reporterId, table.createdAt.desc()),
    index("reports_item_idx").on(table.itemId),
    // Decision 0523: the staff's count of waiting reports, per campus.
    index("reports_campus_idx").on(table.campusId),
  ],
);

/** Decision 0540: a reported chat message and the 10 before it, as they were when reported. */
export interface ReportedMessageSnapshot {
  chatId: string;
  messages: {
    id: string;
    senderId: string;
    senderName: string;
    text: string;
    hasPhoto: boolean;
    sharedPostId: string | null;
    createdAt: string;
  }[];
}

/** Decision 0542: a reporter's decided reports, so their next reports weigh by their accuracy. */
export const reporterRecords = pgTable("reporter_records", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  upheld: integer("upheld").notNull().default(0),
  dismissed: integer("dismissed").notNull().default(0),
  /** Staff muted this student's reports: they count 0 (decision 0542). */
  muted: boolean("muted").notNull().default(false),
});
