import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import * as columns from "./columns";
import { posts } from "./posts";

/** Decision 0620: how a saved search tells its student of new matches. */
export const SAVED_SEARCH_CADENCES = ["instant", "daily", "off"] as const;
export type SavedSearchCadence = (typeof SAVED_SEARCH_CADENCES)[number];

/**
 * Decision 0620: a student's saved search. `query` is the search address's own query string
 * (`q` and the filters, as /search writes them), replayed through the same parser and search
 * function as /search; `query_key` is its canonical form, unique per student, so saving the same
 * search twice finds the one already saved. `rare_word` (the word of the query with the fewest
 * listings when it was saved), `category` and the price bounds are the matcher's candidate step
 * (decision 0620), never its answer. `unsubscribe_token_hash` is the one-click link's token
 * (SHA-256). `opened_at` marks what 'new since last time' means.
 */
export const savedSearches = pgTable(
  "saved_searches",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    userId: columns.userRef("user_id"),
    name: text("name").notNull(),
    query: text("query").notNull(),
    queryKey: text("query_key").notNull(),
    rareWord: text("rare_word"),
    /**
     * Decision 0622: the rare word with one or two letters left out (typoKeys), so the candidate
     * step also finds a listing that /search would find through a misspelling of it.
     */
    typoKeys: text("typo_keys").array().notNull().default(sql`'{}'::text[]`),
    category: text("category"),
    minPriceCents: integer("min_price_cents"),
    maxPriceCents: integer("max_price_cents"),
    cadence: text("cadence", { enum: SAVED_SEARCH_CADENCES }).notNull().default("instant"),
    unsubscribeTokenHash: text("unsubscribe_token_hash").notNull(),
    createdAt: columns.createdAt(),
    openedAt: columns.time("opened_at").notNull().defaultNow(),
    /** The last instant e-mail about this search: at most one an hour (decision 0620). */
    lastInstantMailAt: columns.time("last_instant_mail_at"),
  },
  (table) => [
    check(
      "saved_searches_values",
      sql`${table.cadence} in ('instant', 'daily', 'off')
        and char_length(${table.name}) between 1 and 100
        and char_length(${table.query}) <= 500`,
    ),
    uniqueIndex("saved_searches_user_query_unique").on(table.userId, table.queryKey),
    index("saved_searches_user_idx").on(table.userId, table.createdAt.desc()),
    // Decision 0620's candidate step: searches with words by their rarest word, the others by category.
    index("saved_searches_rare_word_idx")
      .on(table.campusId, table.rareWord)
      .where(sql`${table.cadence} <> 'off' and ${table.rareWord} is not null`),
    // Written straight into the index (no pending list): the matcher reads it for every listing.
    index("saved_searches_typo_keys_idx")
      .using("gin", table.typoKeys)
      .with({ fastupdate: false })
      .where(sql`${table.cadence} <> 'off' and ${table.rareWord} is not null`),
    index("saved_searches_wordless_idx")
      .on(table.campusId, table.category)
      .where(sql`${table.cadence} <> 'off' and ${table.rareWord} is null`),
    uniqueIndex("saved_searches_token_unique").on(table.unsubscribeTokenHash),
  ],
);

/**
 * Decision 0620: one listing delivered to one saved search, written once (the primary key), so a
 * job killed and run again never tells twice. `notified_at` is the instant notice; `emailed_at`
 * the daily digest that listed it (or decided not to).
 */
export const savedSearchHits = pgTable(
  "saved_search_hits",
  {
    savedSearchId: uuid("saved_search_id")
      .notNull()
      .references(() => savedSearches.id, { onDelete: "cascade" }),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    userId: columns.userRef("user_id"),
    campusId: columns.campusId(),
    createdAt: columns.createdAt(),
    notifiedAt: columns.time("notified_at"),
    emailedAt: columns.time("emailed_at"),
  },
  (table) => [
    primaryKey({ columns: [table.savedSearchId, table.postId] }),
    index("saved_search_hits_post_idx").on(table.postId),
    // The daily digest: a student's hits not yet e-mailed.
    index("saved_search_hits_digest_idx")
      .on(table.userId, table.createdAt)
      .where(sql`${table.emailedAt} is null`),
  ],
);

/**
 * Decision 0620: a listing waiting to be matched against its campus's saved searches, written in
 * the transaction that published it (or made it available again). The job works through the
 * searches in id order from `after_id` in bounded batches, so a listing that matches 50,000
 * searches resumes where a killed run stopped; the row goes when the last batch is done.
 */
export const savedSearchMatchQueue = pgTable("saved_search_match_queue", {
  postId: uuid("post_id")
    .primaryKey()
    .references(() => posts.id, { onDelete: "cascade" }),
  campusId: columns.campusId(),
  afterId: uuid("after_id"),
  enqueuedAt: columns.time("enqueued_at").notNull(),
});

/**
 * Decision 0620: a listing's price went down; everyone who saved it hears once per drop (the
 * notification names this row, which keeps the old and new price the words need).
 */
export const priceDrops = pgTable(
  "price_drops",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    fromCents: integer("from_cents").notNull(),
    toCents: integer("to_cents").notNull(),
    createdAt: columns.createdAt(),
  },
  (table) => [
    check("price_drops_down", sql`${table.toCents} >= 0 and ${table.toCents} < ${table.fromCents}`),
    index("price_drops_post_idx").on(table.postId, table.createdAt.desc()),
  ],
);
