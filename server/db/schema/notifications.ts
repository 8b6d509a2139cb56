import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { chatMessages, chats } from "./chats";
import * as columns from "./columns";
import { posts } from "./posts";
import { priceDrops, savedSearches } from "./saved-searches";
import { moderationLog } from "./staff";
import { deals, meetups, offers, reviews } from "./trade";

/**
 * spec 2 §3 Notification types, plus 'available again' (a saved listing is for sale again,
 * decision 0250). Stored as the spec spells them.
 */
export const NOTIFICATION_TYPES = [
  "like",
  "comment",
  "comment reply",
  "comment interaction",
  "post interaction",
  "message",
  "message like",
  "new chat",
  "available again",
  // Decision 0543: a moderator's action on the student's content or account (the log row says which).
  "moderation",
  // Decision 0570: the student's data archive is ready (the link itself is only in the e-mail).
  "data export",
  // Decision 0600: the trade; `event` says which (an offer made, countered, accepted, …).
  "offer",
  "deal",
  "meetup",
  "review",
  // Decision 0620: a saved search's new match, a saved listing's lower price.
  "search match",
  "price drop",
  // Decision 0650: the verified-student badge lapses within 30 days, or has lapsed.
  "badge",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * spec 2 §3 Notification: to_user = user_id, from_user = actor_id (name and avatar are read
 * from the actor's row when listed, so a renamed user shows their current name). A
 * notification about a post or comment goes when that content is deleted (cascade), so
 * nothing links to, or e-mails, deleted content (decision 0251).
 */
export const notifications = pgTable(
  "notifications",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    userId: columns.userRef("user_id"),
    actorId: columns.userRef("actor_id"),
    type: text("type", { enum: NOTIFICATION_TYPES }).notNull(),
    /** The top-level post it is about (spec 2 §3 postId). */
    postId: uuid("post_id").references(() => posts.id, { onDelete: "cascade" }),
    /** The comment or reply that caused it, when one did. */
    commentId: uuid("comment_id").references(() => posts.id, { onDelete: "cascade" }),
    /** spec 2 §3 chatId: deleting the chat (for both, decision 0234) drops its notifications. */
    chatId: uuid("chat_id").references(() => chats.id, { onDelete: "cascade" }),
    messageId: uuid("message_id").references(() => chatMessages.id, { onDelete: "cascade" }),
    /** Decision 0543: for a 'moderation' notification, the moderation log row it tells of. */
    moderationLogId: uuid("moderation_log_id").references(() => moderationLog.id, { onDelete: "cascade" }),
    /** Decision 0600: the trade's row a notice is about; it goes with that row. */
    offerId: uuid("offer_id").references(() => offers.id, { onDelete: "cascade" }),
    dealId: uuid("deal_id").references(() => deals.id, { onDelete: "cascade" }),
    meetupId: uuid("meetup_id").references(() => meetups.id, { onDelete: "cascade" }),
    reviewId: uuid("review_id").references(() => reviews.id, { onDelete: "cascade" }),
    /** Decision 0620: the saved search a 'search match' is for; decision 0620: the drop a 'price drop' tells. */
    savedSearchId: uuid("saved_search_id").references(() => savedSearches.id, { onDelete: "cascade" }),
    priceDropId: uuid("price_drop_id").references(() => priceDrops.id, { onDelete: "cascade" }),
    /** For the trade's types: what happened ('made', 'countered', 'accepted', 'reminder', …). */
    event: text("event"),
    read: boolean("read").notNull().default(false),
    /** Set when a notification e-mail carried it (or decided not to), so no e-mail repeats it. */
    emailedAt: columns.time("emailed_at"),
    /** True while a web push is owed for it (the worker's queue, decision 0252). */
    pushPending: boolean("push_pending").notNull().default(false),
    createdAt: columns.createdAt(),
  },
  (table) => [
    // spec 2 §7: to_user, createdAt descending, pages of 15 (keyset on created_at, id).
    index("notifications_user_idx").on(table.userId, table.createdAt.desc(), table.id.desc()),
    // spec 2 §7 unread count: to_user and read false.
    index("notifications_unread_idx").on(table.userId, table.createdAt).where(sql`${table.read} = false`),
    // The e-mail composer reads a user's notifications not yet e-mailed.
    index("notifications_unmailed_idx")
      .on(table.userId, table.createdAt)
      .where(sql`${table.emailedAt} is null`),
    index("notifications_push_idx").on(table.createdAt).where(sql`${table.pushPending}`),
    index("notifications_post_idx").on(table.postId),
    index("notifications_comment_idx").on(table.commentId),
    // Decision 0571: deleting an account removes the notices it caused (a cascade on actor_id).
    index("notifications_actor_idx").on(table.actorId),
    // The trade's rows cascade to their notices.
    index("notifications_offer_idx").on(table.offerId).where(sql`${table.offerId} is not null`),
    index("notifications_deal_idx").on(table.dealId).where(sql`${table.dealId} is not null`),
    index("notifications_meetup_idx").on(table.meetupId).where(sql`${table.meetupId} is not null`),
    index("notifications_review_idx").on(table.reviewId).where(sql`${table.reviewId} is not null`),
    index("notifications_saved_search_idx")
      .on(table.savedSearchId)
      .where(sql`${table.savedSearchId} is not null`),
    index("notifications_price_drop_idx").on(table.priceDropId).where(sql`${table.priceDropId} is not null`),
  ],
);

/**
 * Per-user notification settings beside spec 1 §3 `email_notifications` (the master switch on
 * the user row): e-mail per kind (decision 0251), and when the list was last opened, which
 * resets the badge (spec 2 §4). No row means every default.
 */
export const notificationSettings = pgTable("notification_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  emailComments: boolean("email_comments").notNull().default(true),
  emailSaves: boolean("email_saves").notNull().default(true),
  emailMessages: boolean("email_messages").notNull().default(true),
  /** Decision 0620: price drops of saved listings, a kind of its own in /settings/notifications. */
  emailPriceDrops: boolean("email_price_drops").notNull().default(true),
  /** spec 2 §4 'The unread count resets when the notifications page opens'. */
  seenAt: columns.time("seen_at"),
});

/** Web push subscriptions, one per browser a user turned push on in (decision 0252). */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: columns.id(),
    userId: columns.userRef("user_id"),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: columns.createdAt(),
  },
  (table) => [
    uniqueIndex("push_subscriptions_endpoint_unique").on(table.endpoint),
    index("push_subscriptions_user_idx").on(table.userId),
  ],
);
