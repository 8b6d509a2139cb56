import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  pgTable,
  real,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import { chats } from "./chats";
import * as columns from "./columns";
import { posts } from "./posts";

/**
 * The trade (decision 0600): offers in a conversation, the deal an accepted offer
 * (or 'Mark sold to…') makes, the campus's meetup spots, a meetup proposed in a chat, and the
 * two reviews of a completed deal. Every row carries its campus; times that users see (an
 * offer's expiry, a review's publication) are columns compared with the clock when read.
 */

/** Decision 0600: an offer's stored states; 'Expired' is read from `expires_at`, never stored first. */
export const OFFER_STATES = [
  "pending",
  "countered",
  "accepted",
  "declined",
  "withdrawn",
  "expired",
  "closed",
] as const;
export type OfferState = (typeof OFFER_STATES)[number];

/**
 * Decision 0600: one offer on a listing between its seller and one buyer, made by `from_user_id`
 * to `to_user_id` (the buyer first, then turns alternate). A counter marks the offer it answers
 * 'countered' and is a new row naming it in `replaces_id`. `version` goes up with every change,
 * so an accept names what the browser showed. At most one pending offer per buyer and listing
 * (the partial unique index); a pending offer past `expires_at` reads Expired and is marked so by
 * whichever write next touches the pair, or by the expiry job.
 */
export const offers = pgTable(
  "offers",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    chatId: uuid("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    sellerId: columns.userRef("seller_id"),
    buyerId: columns.userRef("buyer_id"),
    fromUserId: columns.userRef("from_user_id"),
    toUserId: columns.userRef("to_user_id"),
    amountCents: integer("amount_cents").notNull(),
    note: text("note"),
    state: text("state", { enum: OFFER_STATES }).notNull().default("pending"),
    version: integer("version").notNull().default(1),
    replacesId: uuid("replaces_id").references((): AnyPgColumn => offers.id, { onDelete: "set null" }),
    createdAt: columns.createdAt(),
    expiresAt: columns.time("expires_at").notNull(),
    decidedAt: columns.time("decided_at"),
    /** Set by the offer job once the reminder (2 hours before expiry) went, so it goes once. */
    reminderSentAt: columns.time("reminder_sent_at"),
    /** Set by the offer job once the expiry notice went. */
    expiryNoticeSentAt: columns.time("expiry_notice_sent_at"),
  },
  (table) => [
    check(
      "offers_values",
      sql`${table.amountCents} > 0 and ${table.amountCents} <= 10000000
        and ${table.state} in ('pending', 'countered', 'accepted', 'declined', 'withdrawn', 'expired', 'closed')
        and (${table.note} is null or char_length(${table.note}) <= 500)`,
    ),
    uniqueIndex("offers_one_pending_unique")
      .on(table.postId, table.buyerId)
      .where(sql`${table.state} = 'pending'`),
    // The seller's 'Offers (n)' and closing the others on accept.
    index("offers_post_idx").on(table.postId, table.state),
    // The daily limit: a buyer's offers on a listing in the last day.
    index("offers_buyer_post_created_idx").on(table.buyerId, table.postId, table.createdAt.desc()),
    index("offers_chat_idx").on(table.chatId, table.createdAt.desc()),
    // The offer job: pending offers by expiry.
    index("offers_pending_expiry_idx").on(table.expiresAt).where(sql`${table.state} = 'pending'`),
  ],
);

/** Decision 0600: a deal's states. */
export const DEAL_STATES = ["active", "completed", "cancelled"] as const;
export type DealState = (typeof DEAL_STATES)[number];

/**
 * Decision 0600: the seller agreed to sell the listing to one buyer, from an accepted offer
 * (`offer_id`, `amount_cents`) or from 'Mark sold to…' (no offer). One active deal per listing
 * (the partial unique index), so two accepts at the same instant make one deal.
 */
export const deals = pgTable(
  "deals",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    chatId: uuid("chat_id").references(() => chats.id, { onDelete: "set null" }),
    sellerId: columns.userRef("seller_id"),
    buyerId: columns.userRef("buyer_id"),
    offerId: uuid("offer_id").references(() => offers.id, { onDelete: "set null" }),
    amountCents: integer("amount_cents"),
    state: text("state", { enum: DEAL_STATES }).notNull().default("active"),
    cancelledBy: text("cancelled_by").references(() => user.id, { onDelete: "set null" }),
    cancelReason: text("cancel_reason"),
    createdAt: columns.createdAt(),
    completedAt: columns.time("completed_at"),
    cancelledAt: columns.time("cancelled_at"),
    /** Set by the review job when the 14-day window's publication and reminder went. */
    reviewsSettledAt: columns.time("reviews_settled_at"),
  },
  (table) => [
    check(
      "deals_values",
      sql`${table.state} in ('active', 'completed', 'cancelled')
        and (${table.amountCents} is null or (${table.amountCents} > 0 and ${table.amountCents} <= 10000000))
        and (${table.cancelReason} is null or char_length(${table.cancelReason}) <= 500)
        and ${table.sellerId} <> ${table.buyerId}`,
    ),
    uniqueIndex("deals_one_active_unique").on(table.postId).where(sql`${table.state} = 'active'`),
    index("deals_post_idx").on(table.postId, table.createdAt.desc()),
    index("deals_seller_idx").on(table.sellerId, table.state, table.completedAt.desc()),
    index("deals_buyer_idx").on(table.buyerId, table.state, table.completedAt.desc()),
    index("deals_chat_idx").on(table.chatId),
    // Decision 0551: the dashboard's completed trades per campus over 7 and 30 days.
    index("deals_completed_idx")
      .on(table.campusId, table.completedAt)
      .where(sql`${table.state} = 'completed'`),
    // The review job: completed deals whose 14 days have not been settled.
    index("deals_unsettled_idx")
      .on(table.completedAt)
      .where(sql`${table.state} = 'completed' and ${table.reviewsSettledAt} is null`),
  ],
);

/** Decision 0600: the kinds of a meetup spot, in the picker's order. */
export const MEETUP_SPOT_KINDS = ["police", "library", "union", "other"] as const;
export type MeetupSpotKind = (typeof MEETUP_SPOT_KINDS)[number];

/**
 * Decision 0600: a campus's safe place to meet, entered by a site admin (never invented for a real
 * campus). A spot that is removed is archived, so meetups already proposed there keep their words.
 */
export const meetupSpots = pgTable(
  "meetup_spots",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    name: text("name").notNull(),
    kind: text("kind", { enum: MEETUP_SPOT_KINDS }).notNull(),
    address: text("address").notNull(),
    hours: text("hours").notNull().default(""),
    rules: text("rules").notNull().default(""),
    position: integer("position").notNull().default(0),
    createdAt: columns.createdAt(),
    archivedAt: columns.time("archived_at"),
  },
  (table) => [
    check(
      "meetup_spots_values",
      sql`${table.kind} in ('police', 'library', 'union', 'other')
        and char_length(${table.name}) between 1 and 100
        and char_length(${table.address}) between 1 and 200
        and char_length(${table.hours}) <= 200
        and char_length(${table.rules}) <= 500`,
    ),
    index("meetup_spots_campus_idx")
      .on(table.campusId, table.position)
      .where(sql`${table.archivedAt} is null`),
  ],
);

/** Decision 0600: a meetup proposal's states. */
export const MEETUP_STATES = ["proposed", "accepted", "replaced", "cancelled"] as const;
export type MeetupState = (typeof MEETUP_STATES)[number];

/**
 * Decision 0600: a meetup proposed in a chat at one of the campus's spots and a time. 'Suggest
 * another' marks it 'replaced' and proposes a new one; an accepted meetup is attached to the
 * chat's active deal (`deal_id`), and the job reminds both an hour before (`reminder_sent_at`).
 */
export const meetups = pgTable(
  "meetups",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    chatId: uuid("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    postId: uuid("post_id").references(() => posts.id, { onDelete: "set null" }),
    dealId: uuid("deal_id").references(() => deals.id, { onDelete: "set null" }),
    spotId: uuid("spot_id")
      .notNull()
      .references(() => meetupSpots.id),
    proposedBy: columns.userRef("proposed_by"),
    proposedTo: columns.userRef("proposed_to"),
    meetsAt: columns.time("meets_at").notNull(),
    state: text("state", { enum: MEETUP_STATES }).notNull().default("proposed"),
    createdAt: columns.createdAt(),
    decidedAt: columns.time("decided_at"),
    reminderSentAt: columns.time("reminder_sent_at"),
  },
  (table) => [
    check("meetups_state", sql`${table.state} in ('proposed', 'accepted', 'replaced', 'cancelled')`),
    index("meetups_chat_idx").on(table.chatId, table.createdAt.desc()),
    index("meetups_deal_idx").on(table.dealId),
    // The reminder job: accepted meetups by time.
    index("meetups_upcoming_idx")
      .on(table.meetsAt)
      .where(sql`${table.state} = 'accepted' and ${table.reminderSentAt} is null`),
  ],
);

/** Decision 0600: the tags a review may carry, by the role of the person reviewed. */
export const SELLER_REVIEW_TAGS = ["as_described", "friendly", "on_time", "communication"] as const;
export const BUYER_REVIEW_TAGS = ["on_time", "friendly", "communication", "paid_as_agreed"] as const;

/**
 * Decision 0600: one review of a completed deal by one of its two people about the other.
 * `publishes_at` is when the other side and the public may read it: the deal's completion plus
 * 14 days, or, once the second review is written, that moment for both (read against the clock,
 * never flipped by a job). `private_note` is for the subject only. The subject may add one
 * public `reply`. `moderation_state` 'removed' takes it out of every list.
 */
export const reviews = pgTable(
  "reviews",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    dealId: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    authorId: columns.userRef("author_id"),
    subjectId: columns.userRef("subject_id"),
    /** The subject's side of the deal: a review of a seller carries seller tags. */
    subjectRole: text("subject_role", { enum: ["seller", "buyer"] }).notNull(),
    stars: integer("stars").notNull(),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    publicText: text("public_text").notNull().default(""),
    privateNote: text("private_note"),
    reply: text("reply"),
    repliedAt: columns.time("replied_at"),
    moderationState: text("moderation_state", { enum: ["removed"] }),
    createdAt: columns.createdAt(),
    publishesAt: columns.time("publishes_at").notNull(),
  },
  (table) => [
    check(
      "reviews_values",
      sql`${table.stars} between 1 and 5
        and ${table.subjectRole} in ('seller', 'buyer')
        and cardinality(${table.tags}) <= 3
        and char_length(${table.publicText}) <= 500
        and (${table.privateNote} is null or char_length(${table.privateNote}) <= 500)
        and (${table.reply} is null or char_length(${table.reply}) <= 500)
        and ${table.authorId} <> ${table.subjectId}`,
    ),
    uniqueIndex("reviews_deal_author_unique").on(table.dealId, table.authorId),
    // The Reviews tab and the reputation: a subject's reviews, newest first.
    index("reviews_subject_idx").on(table.subjectId, table.publishesAt.desc(), table.id.desc()),
    index("reviews_author_idx").on(table.authorId),
  ],
);

/**
 * Decision 0600: a member's reputation as cards and headers show it, kept by the trade's writers
 * (a review published, a deal completed, a reviewer banned) and the reputation job (reply speed),
 * so a card never aggregates. `rating` is the average of the counted reviews (a repeat pair once
 * per 90 days, banned reviewers out), null below three; `reply_seconds` the median first reply of
 * the last 90 days, null without any.
 */
export const reputations = pgTable("reputations", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  reviewCount: integer("review_count").notNull().default(0),
  rating: real("rating"),
  tradesCompleted: integer("trades_completed").notNull().default(0),
  replySeconds: integer("reply_seconds"),
  updatedAt: columns.time("updated_at").notNull().defaultNow(),
});
