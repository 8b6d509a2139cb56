import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import * as columns from "./columns";
import { posts } from "./posts";

/**
 * spec 2 §3 Ad: a boosted post. Money in cents; durations in whole days (the slider, spec 2 §9),
 * with `run_until_pause` paid as 30 days ahead (decision 0271). `end_time_adjusted` moves out by
 * every pause (spec 2 §4 Resume); `time_paused_ms` is the total paused time.
 */
export const ads = pgTable(
  "ads",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    userId: columns.userRef("user_id"),
    title: text("title").notNull().default(""),
    ctaType: text("cta_type", { enum: ["website", "message", "profile"] }).notNull(),
    ctaLabel: text("cta_label").notNull(),
    ctaUrl: text("cta_url"),
    days: integer("days").notNull(),
    runUntilPause: boolean("run_until_pause").notNull().default(false),
    amountBudgeted: integer("amount_budgeted").notNull(),
    /** Cents given back (refunds of unused days, decision 0272). */
    amountRefunded: integer("amount_refunded").notNull().default(0),
    /** spec 2 §4 'Ad status values'. */
    status: text("status", {
      enum: ["checkout", "scheduled", "in review", "active", "paused", "rejected", "stopped", "completed"],
    })
      .notNull()
      .default("checkout"),
    startTime: columns.time("start_time"),
    endTimeAdjusted: columns.time("end_time_adjusted"),
    pausedAt: columns.time("paused_at"),
    timePausedMs: bigint("time_paused_ms", { mode: "number" }).notNull().default(0),
    /** When it stopped or completed: the spend is counted up to here. */
    endedAt: columns.time("ended_at"),
    checkoutSessionId: text("checkout_session_id"),
    paymentId: uuid("payment_id"),
    createdAt: columns.createdAt(),
    lastModified: columns.lastModified(),
  },
  (table) => [
    // spec 2 §7 Active ads: status active, end after now, by end_time_adjusted then createdAt desc.
    index("ads_active_idx")
      .on(table.campusId, table.endTimeAdjusted, table.createdAt.desc())
      .where(sql`${table.status} = 'active'`),
    // spec 2 §7 User ads (createdAt desc) and the ads of a post.
    index("ads_user_idx").on(table.userId, table.createdAt.desc(), table.id.desc()),
    index("ads_post_idx").on(table.postId, table.createdAt.desc()),
    // Decision 0270: one live ad per post (spec 2 §4 'This post is already boosted').
    uniqueIndex("ads_one_live_per_post")
      .on(table.postId)
      .where(sql`${table.status} in ('checkout', 'active', 'paused', 'scheduled', 'in review')`),
    uniqueIndex("ads_checkout_session_unique").on(table.checkoutSessionId),
  ],
);

export type AdStatus = (typeof ads.$inferSelect)["status"];

/**
 * A checkout session (spec 2 §3 'Checkout session request'): Stripe's, or the built-in test
 * checkout's (decision 0270), which keeps its state here so any app process can serve it.
 */
export const checkoutSessions = pgTable(
  "checkout_sessions",
  {
    id: text("id").primaryKey(),
    adId: uuid("ad_id").references(() => ads.id, { onDelete: "set null" }),
    userId: columns.userRef("user_id"),
    campusId: columns.campusId(),
    provider: text("provider", { enum: ["stripe", "test"] }).notNull(),
    amountTotal: integer("amount_total").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status", { enum: ["open", "complete", "expired"] })
      .notNull()
      .default("open"),
    paymentIntent: text("payment_intent"),
    successUrl: text("success_url").notNull(),
    cancelUrl: text("cancel_url").notNull(),
    createdAt: columns.createdAt(),
    expiresAt: columns.time("expires_at").notNull(),
  },
  (table) => [index("checkout_sessions_ad_idx").on(table.adId)],
);

/** spec 1 §2 Payment Activity: payments and refunds (decision 0272), kept when the ad or post is gone. */
export const payments = pgTable(
  "payments",
  {
    id: columns.id(),
    userId: columns.userRef("user_id"),
    campusId: columns.campusId(),
    adId: uuid("ad_id").references(() => ads.id, { onDelete: "set null" }),
    kind: text("kind", { enum: ["payment", "refund"] }).notNull(),
    /** Refunds are 'pending' until the provider confirmed them; the ads job retries them. */
    status: text("status", { enum: ["succeeded", "pending"] })
      .notNull()
      .default("succeeded"),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("usd"),
    provider: text("provider", { enum: ["stripe", "test"] }).notNull(),
    /** The payment intent of a payment, or the refund id of a refund. */
    providerRef: text("provider_ref"),
    /** The payment intent a refund gives back from. */
    refundOf: text("refund_of"),
    checkoutSessionId: text("checkout_session_id"),
    description: text("description").notNull(),
    /**
     * Decision 0560: a refund a site admin made from the console carries the key its form was
     * issued with, so a second click (or a replayed request) finds the first refund.
     */
    idempotencyKey: text("idempotency_key"),
    createdAt: columns.createdAt(),
  },
  (table) => [
    index("payments_user_idx").on(table.userId, table.createdAt.desc(), table.id.desc()),
    // One payment row per paid checkout session, however many deliveries (decision 0270).
    uniqueIndex("payments_session_unique").on(table.checkoutSessionId).where(sql`${table.kind} = 'payment'`),
    uniqueIndex("payments_idempotency_unique").on(table.idempotencyKey),
    index("payments_pending_idx").on(table.createdAt).where(sql`${table.status} = 'pending'`),
  ],
);

/** Webhook event ids already handled (decision 0270: replays and concurrent deliveries do nothing). */
export const paymentEvents = pgTable("payment_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: columns.time("received_at").notNull().defaultNow(),
});

/** spec 2 §3 Post.analytics: the counters of a boosted post. */
export const postAnalytics = pgTable("post_analytics", {
  postId: uuid("post_id")
    .primaryKey()
    .references(() => posts.id, { onDelete: "cascade" }),
  views: integer("views").notNull().default(0),
  accountsReached: integer("accounts_reached").notNull().default(0),
  directMessages: integer("direct_messages").notNull().default(0),
  copiedLink: integer("copied_link").notNull().default(0),
  externalLinkClicks: integer("external_link_clicks").notNull().default(0),
  profileVisits: integer("profile_visits").notNull().default(0),
});

/**
 * spec 2 §4 'Analytics tracking': one row per (post, action, browser session), so each action
 * counts once per session (decision 0273); 'reach' rows count accounts once per post.
 */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    sessionKey: text("session_key").notNull(),
    createdAt: columns.createdAt(),
  },
  (table) => [primaryKey({ columns: [table.postId, table.action, table.sessionKey] })],
);
