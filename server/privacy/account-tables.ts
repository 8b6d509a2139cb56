/**
 * Decision 0571: every table that holds a user's id, and what deleting the account does to it.
 * The deletion (./deletion.ts) follows this list, and server/privacy/account-tables.test.ts reads
 * the database's own catalogue and fails when a table referencing users is missing here, so a new
 * table cannot be forgotten.
 *
 * - `deleted`: the student's rows go (by the columns named).
 * - `kept`: the rows stay and point at the tombstone ('Deleted account'), for the reason given.
 * - `tombstone`: the user row itself, cleared of everything personal.
 */
export type TableFate =
  | { fate: "deleted"; columns: readonly string[]; note: string }
  | { fate: "kept"; note: string }
  | { fate: "tombstone"; note: string };

export const ACCOUNT_TABLES: Readonly<Record<string, TableFate>> = {
  user: {
    fate: "tombstone",
    note: "name, photo, bio, phone, gender, birth date cleared; e-mails and username released after 30 days",
  },
  session: { fate: "deleted", columns: ["user_id"], note: "signed out everywhere" },
  account: { fate: "deleted", columns: ["user_id"], note: "password and Google link" },
  verification: {
    fate: "deleted",
    columns: ["value", "identifier"],
    note: "better-auth's reset and sign-in links, the deletion code (the id or the address)",
  },
  verification_codes: { fate: "deleted", columns: ["user_id"], note: "4-digit codes" },
  login_throttle: {
    fate: "deleted",
    columns: ["key"],
    note: "failed-try counters keyed by the id or the address",
  },
  posts: {
    fate: "deleted",
    columns: ["author_id"],
    note: "posts and comments, with the replies below them, as deletePost does",
  },
  post_likes: { fate: "deleted", columns: ["user_id"], note: "saves; the saved posts' counts go down" },
  listing_watches: { fate: "deleted", columns: ["user_id"], note: "'Notify me' on reserved listings" },
  chats: { fate: "kept", note: "the other person's conversation; deleted once neither side is left" },
  chat_members: {
    fate: "deleted",
    columns: ["user_id"],
    note: "the student's inbox; the other side's row stays",
  },
  chat_messages: {
    fate: "kept",
    note: "the other person keeps the conversation, shown from 'Deleted account'",
  },
  user_blocks: { fate: "deleted", columns: ["blocker_id", "blocked_id"], note: "blocks either way" },
  notifications: {
    fate: "deleted",
    columns: ["user_id", "actor_id"],
    note: "the student's and the ones they caused",
  },
  notification_settings: { fate: "deleted", columns: ["user_id"], note: "settings" },
  push_subscriptions: { fate: "deleted", columns: ["user_id"], note: "browsers' push" },
  ads: { fate: "deleted", columns: ["user_id"], note: "running ads stopped and unused days refunded first" },
  checkout_sessions: { fate: "kept", note: "financial records, pointing at the tombstone" },
  payments: { fate: "kept", note: "financial records, pointing at the tombstone" },
  search_history: { fate: "deleted", columns: ["user_id"], note: "recent searches" },
  moderation_items: { fate: "kept", note: "safety records of what was reported and decided" },
  strikes: { fate: "kept", note: "safety records" },
  appeals: { fate: "kept", note: "safety records" },
  banned_emails: { fate: "kept", note: "a ban keeps refusing the address" },
  reports: { fate: "kept", note: "safety records; reports count in the queue's weights" },
  reporter_records: { fate: "kept", note: "the reporter's accuracy, part of the reports' weights" },
  moderation_log: { fate: "kept", note: "append-only (decision 0521); the role revocations are added to it" },
  staff_roles: { fate: "deleted", columns: ["user_id"], note: "roles revoked and logged as the system's" },
  mail_outbox: {
    fate: "deleted",
    columns: ["user_id", "to"],
    note: "mail to the student's addresses (the goodbye mail goes out after)",
  },
  realtime_cursors: { fate: "deleted", columns: ["user_id"], note: "live events" },
  realtime_events: { fate: "deleted", columns: ["user_id"], note: "live events" },
  realtime_presence: { fate: "deleted", columns: ["user_id"], note: "live events" },
  data_exports: { fate: "deleted", columns: ["user_id"], note: "archives, with their files" },
  offers: {
    fate: "deleted",
    columns: ["buyer_id", "seller_id"],
    note: "offers either way; the other side's card reads no longer available",
  },
  deals: {
    fate: "kept",
    note: "the other person's completed trade; an active deal must be finished or cancelled first",
  },
  meetups: { fate: "deleted", columns: ["proposed_by", "proposed_to"], note: "proposed meetups either way" },
  reviews: {
    fate: "deleted",
    columns: ["author_id", "subject_id"],
    note: "reviews by and of the student; the other person's reputation is recounted",
  },
  reputations: { fate: "deleted", columns: ["user_id"], note: "the student's reputation line" },
  saved_searches: { fate: "deleted", columns: ["user_id"], note: "saved searches and their alerts" },
  saved_search_hits: { fate: "deleted", columns: ["user_id"], note: "what the saved searches delivered" },
  safety_rules: { fate: "kept", note: "the site's rule set; a rule's author is set to null (decision 0650)" },
};
