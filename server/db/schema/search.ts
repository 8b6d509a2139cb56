import { sql } from "drizzle-orm";
import { customType, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import * as columns from "./columns";

/**
 * Search (spec 2 §3: the Search, User search history and Popular search entities; decision 0190).
 * The posts' own search column is `posts.search_tsv` (schema/posts.ts); the term dictionary
 * below is kept current by a trigger on posts (drizzle/*_search.sql), not by the posts code.
 */

/** Drizzle has no tsvector type (docs/architecture.md pitfall 6). */
export const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => "tsvector",
});

/**
 * The words of a post as search sees them: its plain text and its category, lower case, every
 * run of letters and digits one word ('mini-fridge' → 'mini', 'fridge'), in the `simple`
 * configuration (no stemming, so a prefix of a real word stays a prefix of a stored word).
 * server/search/query.ts splits typed text the same way.
 */
export const POST_SEARCH_DOCUMENT = sql`to_tsvector('simple'::regconfig, regexp_replace(lower("text_plain" || ' ' || coalesce("category", '')), '[^[:alnum:]]+', ' ', 'g'))`;

/**
 * Per campus, every word of its top-level posts with the number of posts holding it: typed
 * words are matched against it (typos, prefixes) before the full-text query runs. Maintained
 * by the trigger posts_search_terms_track; rebuildSearchTerms (server/search/terms.ts) recounts.
 */
export const searchTerms = pgTable(
  "search_terms",
  {
    campusId: columns.campusId(),
    term: text("term").notNull(),
    docCount: integer("doc_count").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.campusId, table.term] }),
    // Prefix completion and the typo candidates sharing a typed word's first part. doc_count is a
    // key column so a range is read from the index alone (decision 0310).
    index("search_terms_prefix_idx").on(table.campusId, sql`${table.term} text_pattern_ops`, table.docCount),
    // Typo candidates sharing a typed word's last part; term and doc_count for the same reason.
    index("search_terms_suffix_idx").on(
      table.campusId,
      sql`reverse(${table.term}) text_pattern_ops`,
      table.term,
      table.docCount,
    ),
    // Typo candidates sharing a typed word's middle (two typos, 8 letters and more).
    index("search_terms_trgm_idx").using("gin", table.campusId, sql`${table.term} gin_trgm_ops`),
  ],
);

/** spec 2 §3 'User search history': what a signed-in user searched on a campus, how often and when last. */
export const searchHistory = pgTable(
  "search_history",
  {
    userId: columns.userRef("user_id"),
    campusId: columns.campusId(),
    /** The text in its comparison form (lower case, spaces collapsed): one row per text. */
    textKey: text("text_key").notNull(),
    /** The text as last typed. */
    searchText: text("search_text").notNull(),
    searchQty: integer("search_qty").notNull().default(1),
    createdAt: columns.createdAt(),
    lastModified: columns.lastModified(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.campusId, table.textKey] }),
    // spec 2 §7: recent searches per user, newest first.
    index("search_history_recent_idx").on(table.userId, table.campusId, table.lastModified.desc()),
  ],
);

/** spec 2 §3 (the Search entity): per campus and text, how many searches and how many different people. */
export const searchCounts = pgTable(
  "search_counts",
  {
    campusId: columns.campusId(),
    textKey: text("text_key").notNull(),
    /** The text as first searched, shown in the popular list. */
    searchText: text("search_text").notNull(),
    totalViews: integer("total_views").notNull().default(0),
    uniqueViews: integer("unique_views").notNull().default(0),
    createdAt: columns.createdAt(),
    lastModified: columns.lastModified(),
  },
  (table) => [
    primaryKey({ columns: [table.campusId, table.textKey] }),
    // spec 2 §7 popular searches: most viewers first.
    index("search_counts_popular_idx").on(
      table.campusId,
      table.uniqueViews.desc(),
      table.totalViews.desc(),
      table.textKey,
    ),
    // The dropdown's popular searches starting with what is typed.
    index("search_counts_prefix_idx").on(table.campusId, sql`${table.textKey} text_pattern_ops`),
  ],
);
