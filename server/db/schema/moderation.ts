import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, real, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { campuses } from "./campuses";
import * as columns from "./columns";

/**
 * Decision 0541: what a moderation item is about. A reported post, comment, chat message or member
 * ('user'), a review (decision 0619), or an appeal of a strike.
 */
export const ITEM_TARGET_KINDS = ["post", "comment", "message", "user", "appeal", "review"] as const;
export type ItemTargetKind = (typeof ITEM_TARGET_KINDS)[number];

/** Decision 0543: a moderator's decision on an item, and the actions on a member or a piece of content. */
export const MODERATION_ACTIONS = [
  "dismiss",
  "remove",
  "warn",
  "suspend",
  "ban",
  "restore",
  "lift",
  "note",
  "approve_appeal",
  "reject_appeal",
  // Decision 0542: a reporter's reports weigh 0 (or again as their record says); private to staff.
  "mute_reporter",
  "unmute_reporter",
] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/**
 * Decision 0541: one row per reported thing (or appeal), in the queue while `state` is 'open'.
 * A new report of a decided thing reopens its row. `version` goes up with every change; a decision
 * names the version it was made on and is refused if it moved (the first of two moderators wins).
 * `weight` and `reporters` sum the open reports (decision 0542); `hidden` says the reports hid the
 * content before review. `to_admins` routes it to site admins only (scam reports, chat messages,
 * reports about staff); an item opened more than 72 hours ago is overdue and shown to them too.
 */
export const moderationItems = pgTable(
  "moderation_items",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    targetKind: text("target_kind", { enum: ITEM_TARGET_KINDS }).notNull(),
    targetId: text("target_id").notNull(),
    /** Whose content or account it is (an appeal's: the appellant). */
    targetUserId: text("target_user_id").references(() => user.id, { onDelete: "cascade" }),
    state: text("state", { enum: ["open", "decided"] })
      .notNull()
      .default("open"),
    toAdmins: boolean("to_admins").notNull().default(false),
    weight: real("weight").notNull().default(0),
    reporters: integer("reporters").notNull().default(0),
    hidden: boolean("hidden").notNull().default(false),
    /** A moderator dismissed its reports once: reports alone never hide it again (decision 0542). */
    dismissedOnce: boolean("dismissed_once").notNull().default(false),
    /**
     * Decision 0650: why the product itself opened this item (a safety flag), shown to staff in
     * place of reporters' reasons; null for items opened by reports.
     */
    autoReason: text("auto_reason"),
    version: integer("version").notNull().default(1),
    openedAt: columns.time("opened_at").notNull(),
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    decidedAt: columns.time("decided_at"),
    decision: text("decision", { enum: MODERATION_ACTIONS }),
  },
  (table) => [
    check("moderation_items_state", sql`${table.state} in ('open', 'decided')`),
    uniqueIndex("moderation_items_target_unique").on(table.targetKind, table.targetId),
    // The queue: a campus's open items, oldest first (and every campus's, for site admins).
    index("moderation_items_queue_idx")
      .on(table.campusId, table.openedAt, table.id)
      .where(sql`${table.state} = 'open'`),
    index("moderation_items_open_idx").on(table.openedAt, table.id).where(sql`${table.state} = 'open'`),
    index("moderation_items_target_user_idx").on(table.targetUserId),
  ],
);

/**
 * Decision 0544: a strike, what a Remove, Warn, Suspend or Ban gives the author (a note does not).
 * It carries the content it removed (`target_kind`, `target_id`) and the restriction it set
 * (`suspended_until`; the far future for a ban or 'until lifted'), so an approved appeal
 * (`overruled_at`) undoes exactly that.
 */
export const strikes = pgTable(
  "strikes",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    userId: columns.userRef("user_id"),
    itemId: uuid("item_id").references(() => moderationItems.id, { onDelete: "set null" }),
    action: text("action", { enum: ["remove", "warn", "suspend", "ban"] }).notNull(),
    targetKind: text("target_kind", { enum: ["post", "comment", "message", "user", "review"] }).notNull(),
    targetId: text("target_id").notNull(),
    reasonCode: text("reason_code").notNull(),
    publicReason: text("public_reason").notNull(),
    suspendedUntil: columns.time("suspended_until"),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    createdAt: columns.time("created_at").notNull(),
    overruledAt: columns.time("overruled_at"),
  },
  (table) => [index("strikes_user_created_idx").on(table.userId, table.createdAt.desc())],
);

/**
 * Decision 0545: one appeal per strike, within 20 days, 30 to 2,000 characters. It enters the
 * queue as an item of kind 'appeal'; whoever made the strike's decision may not decide it.
 */
export const appeals = pgTable(
  "appeals",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    strikeId: uuid("strike_id")
      .notNull()
      .references(() => strikes.id, { onDelete: "cascade" }),
    userId: columns.userRef("user_id"),
    text: text("text").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    decidedAt: columns.time("decided_at"),
    decisionReason: text("decision_reason"),
    createdAt: columns.time("created_at").notNull(),
  },
  (table) => [
    uniqueIndex("appeals_strike_unique").on(table.strikeId),
    check("appeals_text_length", sql`char_length(${table.text}) between 30 and 2000`),
  ],
);

/**
 * Decision 0543: e-mail addresses a Ban refuses at sign-up, beside the `banned` flag of spec 1 §6.
 * Stored lower-cased.
 */
export const bannedEmails = pgTable("banned_emails", {
  email: text("email").primaryKey(),
  userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
  campusId: text("campus_id").references(() => campuses.id),
  reason: text("reason"),
  createdAt: columns.time("created_at").notNull(),
});
