import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import * as columns from "./columns";
import { POST_SEARCH_DOCUMENT, tsvector } from "./search";

/**
 * Posts and comments (spec 2 §3 Post: a comment is a post with `post_commented_on`).
 * Counters are kept on the row so lists never count; the thread is reached
 * through `parent_id`, and `root_id` names the top-level post of a comment.
 */
export const posts = pgTable(
  "posts",
  {
    id: columns.id(),
    campusId: columns.campusId(),
    type: text("type", { enum: ["post", "new user"] })
      .notNull()
      .default("post"),
    authorId: columns.userRef("author_id"),
    /** Lexical editor state as JSON; null for posts that are only files or a 'new user' banner. */
    text: jsonb("text"),
    /** The text's plain form, for previews, search and link cards. */
    textPlain: text("text_plain").notNull().default(""),
    category: text("category"),
    /** spec 2 §3 post_commented_on: the parent post or comment, null for top-level posts. */
    parentId: uuid("parent_id").references((): AnyPgColumn => posts.id, { onDelete: "cascade" }),
    rootId: uuid("root_id").references((): AnyPgColumn => posts.id, { onDelete: "cascade" }),
    imgCount: integer("img_count").notNull().default(0),
    saveCount: integer("like_count").notNull().default(0),
    commentCount: integer("comment_count").notNull().default(0),
    createdAt: columns.createdAt(),
    /**
     * spec 2 §4: bumped by replies. Listing essentials (decision 0170) also read it as the
     * listing's last change: renewing sets it to now, and a listing unchanged for
     * LISTING_EXPIRY_DAYS leaves the feed.
     */
    lastModified: columns.lastModified(),
    // Listing essentials (decision 0170; beyond the spec, all optional but kind and status).
    /** Price in US cents; 0 is 'Free'; null: no price stated. */
    priceCents: integer("price_cents"),
    priceTerms: text("price_terms", { enum: ["firm", "offers"] }),
    condition: text("condition", { enum: ["new", "like_new", "good", "fair", "for_parts"] }),
    listingKind: text("listing_kind", { enum: ["selling", "wanted"] })
      .notNull()
      .default("selling"),
    listingStatus: text("listing_status", { enum: ["available", "reserved", "sold"] })
      .notNull()
      .default("available"),
    /**
     * Decision 0542: 'hidden' while reports wait for a moderator, 'removed' by one; null when shown.
     * Every list leaves out a post or comment that has one (its author still sees a hidden one).
     */
    moderationState: text("moderation_state", { enum: ["hidden", "removed"] }),
    /** Decision 0620: when its owner last edited it ('Edited' with the time); null if never. */
    editedAt: columns.time("edited_at"),
    /** Decision 0190: the words search matches, kept by PostgreSQL itself. */
    searchTsv: tsvector("search_tsv").notNull().generatedAlwaysAs(POST_SEARCH_DOCUMENT),
  },
  (table) => [
    check(
      "posts_price_cents_range",
      sql`${table.priceCents} is null or (${table.priceCents} >= 0 and ${table.priceCents} <= 10000000)`,
    ),
    check(
      "posts_listing_values",
      sql`${table.listingKind} in ('selling', 'wanted') and ${table.listingStatus} in ('available', 'reserved', 'sold')
        and (${table.priceTerms} is null or ${table.priceTerms} in ('firm', 'offers'))
        and (${table.condition} is null or ${table.condition} in ('new', 'like_new', 'good', 'fair', 'for_parts'))`,
    ),
    // Decision 0170: the default feed leaves sold listings out; these serve it as the two above serve 'Show sold'.
    index("posts_feed_unsold_idx")
      .on(table.campusId, table.lastModified.desc(), table.id.desc())
      .where(sql`${table.parentId} is null and ${table.listingStatus} <> 'sold'`),
    index("posts_feed_unsold_category_idx")
      .on(table.campusId, table.category, table.lastModified.desc(), table.id.desc())
      .where(
        sql`${table.parentId} is null and ${table.category} is not null and ${table.listingStatus} <> 'sold'`,
      ),
    // The 'Free' filter (few rows: sold ones are filtered out of them in the scan).
    index("posts_feed_free_idx")
      .on(table.campusId, table.lastModified.desc(), table.id.desc())
      .where(sql`${table.parentId} is null and ${table.priceCents} = 0`),
    index("posts_feed_free_category_idx")
      .on(table.campusId, table.category, table.lastModified.desc(), table.id.desc())
      .where(sql`${table.parentId} is null and ${table.category} is not null and ${table.priceCents} = 0`),
    index("posts_media_unsold_idx")
      .on(table.campusId, table.lastModified.desc(), table.id.desc())
      .where(sql`${table.parentId} is null and ${table.imgCount} > 0 and ${table.listingStatus} <> 'sold'`),
    index("posts_feed_idx")
      .on(table.campusId, table.lastModified.desc(), table.id.desc())
      .where(sql`${table.parentId} is null`),
    // spec 2 §2 category filter (decision 0081: every list query has an index that serves it).
    index("posts_feed_category_idx")
      .on(table.campusId, table.category, table.lastModified.desc(), table.id.desc())
      .where(sql`${table.parentId} is null and ${table.category} is not null`),
    // spec 2 §2 /media: top-level posts with at least one photo or video.
    index("posts_media_feed_idx")
      .on(table.campusId, table.lastModified.desc(), table.id.desc())
      .where(sql`${table.parentId} is null and ${table.imgCount} > 0`),
    // Decision 0190: post search, one campus's top-level posts (btree_gin for campus_id).
    index("posts_search_idx")
      .using("gin", table.campusId, table.searchTsv)
      .where(sql`${table.parentId} is null`),
    // Decision 0311: a search for common words walks the campus's posts newest first and stops
    // at a page (the dictionary's counts choose this plan over the GIN bitmap).
    index("posts_search_newest_idx")
      .on(table.campusId, table.createdAt.desc(), table.id.desc())
      .where(sql`${table.parentId} is null`),
    index("posts_replies_idx").on(table.parentId, table.createdAt),
    // The whole thread of a top-level post in one range read (spec 2 §7 replies, recursively).
    index("posts_thread_idx")
      .on(table.rootId, table.createdAt, table.id)
      .where(sql`${table.rootId} is not null`),
    index("posts_author_idx").on(table.authorId, table.lastModified.desc(), table.id.desc()),
    // Decision 0116: the posting limit reads an author's posts and comments of the last day.
    index("posts_author_created_idx")
      .on(table.authorId, table.createdAt.desc())
      .where(sql`${table.type} = 'post'`),
    // spec 2 §7 profile tabs: posts (not 'new user'), photos, replies.
    index("posts_profile_posts_idx")
      .on(table.authorId, table.campusId, table.lastModified.desc(), table.id.desc())
      .where(sql`${table.parentId} is null and ${table.type} = 'post'`),
    index("posts_profile_photos_idx")
      .on(table.authorId, table.campusId, table.createdAt.desc(), table.id.desc())
      .where(sql`${table.parentId} is null and ${table.imgCount} > 0`),
    index("posts_profile_replies_idx")
      .on(table.authorId, table.campusId, table.lastModified.desc(), table.id.desc())
      .where(sql`${table.parentId} is not null`),
  ],
);

/** spec 2 §3 img_gallery: the photos and videos of a post, in order from 1. */
export const postMedia = pgTable(
  "post_media",
  {
    id: columns.id(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    campusId: columns.campusId(),
    kind: text("kind", { enum: ["image", "video"] }).notNull(),
    /** Storage key of the file shown on the post page: the large WebP of a photo, the video as sent. */
    imgPath: text("img_path").notNull(),
    /** Storage key of the small WebP of a photo (grids, lists); null for videos. */
    thumbPath: text("thumb_path"),
    imgName: text("img_name").notNull(),
    imgOrder: integer("img_order").notNull(),
    imgWidth: integer("img_width"),
    imgHeight: integer("img_height"),
    createdAt: columns.createdAt(),
  },
  (table) => [uniqueIndex("post_media_order_unique").on(table.postId, table.imgOrder)],
);

/** A person's mark on a post (a save, a watch): fresh column builders for each table that has them. */
function postPersonColumns() {
  return {
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    userId: columns.userRef("user_id"),
    campusId: columns.campusId(),
    createdAt: columns.createdAt(),
  };
}

/** spec 2 §3 likes / like_id_list: who saved a post. */
export const postLikes = pgTable("post_likes", postPersonColumns(), (table) => [
  primaryKey({ columns: [table.postId, table.userId] }),
  // /saved and the profile likes tab, newest save first, keyset on (created_at, post_id).
  index("post_likes_user_saved_idx").on(
    table.userId,
    table.campusId,
    table.createdAt.desc(),
    table.postId.desc(),
  ),
  // /post/{id}/likes, newest first, keyset on (created_at, user_id).
  index("post_likes_post_idx").on(table.postId, table.createdAt.desc(), table.userId.desc()),
]);

/**
 * Listing essentials (decision 0172): who asked 'Notify me if it's available again'
 * on a reserved listing. Rows leave when the listing is available again (listingAvailableAgain).
 */
export const listingWatches = pgTable("listing_watches", postPersonColumns(), (table) => [
  primaryKey({ columns: [table.postId, table.userId] }),
  // Deleting a member's account removes their watches by user_id.
  index("listing_watches_user_idx").on(table.userId),
]);
