import { asc, type Placeholder, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { preparedStatement } from "../db/prepared";
import { postLikes, postMedia, posts, user } from "../db/schema";
import {
  toUserSummary,
  type UserSummary,
  type UserSummaryRow,
  userSummaryColumns,
} from "../lists/user-summary";
import { MODERATION_MESSAGES } from "../moderation/rules.shared";
import { ratingText } from "../trade/review-rules.shared";
import { isExpired, type ListingView } from "./listing.shared";
import type { RichTextView } from "./rich-text-view.shared";
import { textViewsOf } from "./text-views";

/**
 * What the screens get (docs/architecture.md rule 4: only what they render). Dates are
 * Date objects (React Router's loaders carry them); media come as URLs.
 */

/** One photo or video of a post (spec 2 §3 img_gallery). */
export interface PostMediaView {
  id: string;
  kind: "image" | "video";
  /** spec 2 §9: from 1. */
  order: number;
  /** The file for the post page: the 1080 px WebP of a photo, the video as sent. */
  url: string;
  /** The 480 px WebP of a photo, for grids and lists; null for a video. */
  thumbUrl: string | null;
  name: string;
  /** Of `url`; null for videos (not probed, decision 0082). */
  width: number | null;
  height: number | null;
}

/** A post or comment as lists show it (feed, media grid, saved, profile tabs). */
export interface PostSummary {
  id: string;
  /** 'new user' renders as the '… has joined the community' banner (spec 2 §2). */
  type: "post" | "new user";
  campusId: string;
  author: UserSummary;
  /** The lower-case category value (categories.ts getCategory() gives its text), or null. */
  category: string | null;
  /**
   * The text as a render model; null when the post has no text. In lists, formatting within
   * LIST_TEXT_BUDGET and the rest as plain text (decision 0115); the whole of it on a post's page.
   */
  text: RichTextView | null;
  /** The first photo or video (img_order 1), or null. */
  firstMedia: PostMediaView | null;
  imgCount: number;
  /** How many people saved it (spec 2 §3 likes). */
  saveCount: number;
  /** Direct replies. */
  commentCount: number;
  createdAt: Date;
  lastModified: Date;
  /** spec 2 §3 post_commented_on: null for top-level posts. */
  parentId: string | null;
  /** The top-level post of a comment's thread (its /post/{id} page); null for top-level posts. */
  rootId: string | null;
  savedByViewer: boolean;
  ownedByViewer: boolean;
  /**
   * Decision 0546: the banner's words, 'Hidden while moderators review it', when reports hid it
   * until a moderator decides; null otherwise. Only its author is ever given such a post (every read
   * leaves it out for anyone else). Words rather than a flag: the card draws them as they come, so
   * the feed's first load carries no moderation text.
   */
  hiddenBanner: string | null;
  /** Price, condition, kind and status (decision 0170); defaults for plain posts and comments. */
  listing: ListingView;
  /**
   * Decision 0616: on a listing's card in a list, the seller's '★ 4.8 · 23 reviews' or 'New
   * seller', words from their summary row, shown beside Send Message (a chunk loaded after the
   * page, so the feed's first load carries no code for it); null otherwise.
   */
  sellerRating?: string | null;
}

/** A post page's post (spec 2 §2 'Post detail'): every photo and video, the plain text for link cards. */
export interface PostDetail extends Omit<PostSummary, "firstMedia"> {
  media: PostMediaView[];
  /** Whether the viewer asked 'Notify me if it's available again' (decision 0172). */
  watchedByViewer: boolean;
  /** For OpenGraph / Twitter card descriptions and the page title. */
  plainText: string;
  /** Decision 0640: when its owner last edited it ('Edited' with the time); null if never. */
  editedAt: Date | null;
}

/** A comment of a thread with its replies, oldest first (spec 2 §7 replies, recursively). */
export interface CommentView extends Omit<PostSummary, "firstMedia"> {
  media: PostMediaView[];
  replies: CommentView[];
}

interface MediaJson {
  id: string;
  kind: "image" | "video";
  order: number;
  path: string;
  thumb: string | null;
  name: string;
  width: number | null;
  height: number | null;
}

/**
 * The columns every post view needs, with the author joined (`innerJoin(user, …)`).
 * The viewer's id may be a placeholder (a prepared list query, server/posts/list-queries.ts).
 */
export function summaryColumns(viewer: { id: string | Placeholder } | null) {
  return {
    id: posts.id,
    type: posts.type,
    campusId: posts.campusId,
    // As JSON text: its views are built once per text (textViewsOf), not parsed for every read.
    text: sql<string | null>`${posts.text}::text`,
    category: posts.category,
    parentId: posts.parentId,
    rootId: posts.rootId,
    imgCount: posts.imgCount,
    saveCount: posts.saveCount,
    commentCount: posts.commentCount,
    createdAt: posts.createdAt,
    lastModified: posts.lastModified,
    priceCents: posts.priceCents,
    priceTerms: posts.priceTerms,
    condition: posts.condition,
    listingKind: posts.listingKind,
    listingStatus: posts.listingStatus,
    // Decision 0546: true only on what its author reads (the reads leave it out for anyone else).
    hidden: sql<boolean>`(${posts.moderationState} is not distinct from 'hidden')`,
    author: userSummaryColumns(user),
    // A scalar subquery, not EXISTS: PostgreSQL may turn EXISTS into one hash of all the
    // viewer's saves; this stays one primary-key probe per row shown.
    savedByViewer: viewer
      ? sql<boolean>`coalesce((select true from ${postLikes} where ${postLikes.postId} = ${posts.id} and ${postLikes.userId} = ${viewer.id} limit 1), false)`
      : sql<boolean>`false`,
    // One index probe per row (post_media_order_unique), only for posts that have media.
    firstMedia: sql<MediaJson | null>`case when ${posts.imgCount} > 0 then (
      select json_build_object('id', ${postMedia.id}, 'kind', ${postMedia.kind}, 'order', ${postMedia.imgOrder},
        'path', ${postMedia.imgPath}, 'thumb', ${postMedia.thumbPath}, 'name', ${postMedia.imgName},
        'width', ${postMedia.imgWidth}, 'height', ${postMedia.imgHeight})
      from ${postMedia} where ${postMedia.postId} = ${posts.id} order by ${postMedia.imgOrder} limit 1
    ) end`,
    // Decision 0616: a listing's seller's summary row, one primary-key probe per card (never an
    // aggregate); no row yet reads as no reviews.
    sellerReputation: sql<
      [number, number | null] | null
    >`case when ${posts.parentId} is null and ${posts.priceCents} is not null then coalesce(
      (select json_build_array(review_count, rating) from reputations where reputations.user_id = ${posts.authorId}),
      '[0, null]'::json) end`,
  };
}

export type SummaryRow = {
  id: string;
  type: "post" | "new user";
  campusId: string;
  text: string | null;
  category: string | null;
  parentId: string | null;
  rootId: string | null;
  imgCount: number;
  saveCount: number;
  commentCount: number;
  createdAt: Date;
  lastModified: Date;
  priceCents: number | null;
  priceTerms: ListingView["priceTerms"];
  condition: ListingView["condition"];
  listingKind: ListingView["kind"];
  listingStatus: ListingView["status"];
  hidden: boolean;
  author: UserSummaryRow;
  savedByViewer: boolean;
  firstMedia: MediaJson | null;
  sellerReputation?: [number, number | null] | null;
};

/** The columns of `post_media` a view needs. */
export const mediaColumns = {
  id: postMedia.id,
  postId: postMedia.postId,
  kind: postMedia.kind,
  order: postMedia.imgOrder,
  path: postMedia.imgPath,
  thumb: postMedia.thumbPath,
  name: postMedia.imgName,
  width: postMedia.imgWidth,
  height: postMedia.imgHeight,
};

/** A row of `mediaColumns`. */
type MediaRow = Omit<MediaJson, "order"> & { order: number; postId: string };

export function toMediaView(
  ctx: AppContext,
  row: Omit<MediaJson, "order"> & { order: number },
): PostMediaView {
  return {
    id: row.id,
    kind: row.kind,
    order: row.order,
    url: ctx.storage.url(row.path),
    thumbUrl: row.thumb ? ctx.storage.url(row.thumb) : null,
    name: row.name,
    width: row.width,
    height: row.height,
  };
}

/** Every photo and video of the given posts, each post's in the order shown. */
export async function mediaOf(
  ctx: AppContext,
  postIds: readonly string[],
): Promise<Map<string, PostMediaView[]>> {
  const byPost = new Map<string, PostMediaView[]>();
  if (postIds.length === 0) return byPost;
  // Read on every post page (its photos, its comments'): prepared once, the ids as one array.
  const statement = preparedStatement(ctx.db, "media_of_posts", () =>
    ctx.db
      .select(mediaColumns)
      .from(postMedia)
      .where(sql`${postMedia.postId} = any(${sql.placeholder("postIds")}::uuid[])`)
      .orderBy(asc(postMedia.postId), asc(postMedia.imgOrder)),
  );
  const rows = (await statement.execute({ postIds: [...postIds] })) as MediaRow[];
  for (const row of rows) {
    const list = byPost.get(row.postId) ?? [];
    list.push(toMediaView(ctx, row));
    byPost.set(row.postId, list);
  }
  return byPost;
}

/**
 * A row as screens show it. Lists (the default) bound the text's cost per post
 * (LIST_TEXT_BUDGET, decision 0115); `wholeText` is for the one post a post page shows.
 */
export function toSummary(
  ctx: AppContext,
  viewer: Viewer | null,
  row: SummaryRow,
  options: { wholeText?: boolean } = {},
): PostSummary {
  const views = textViewsOf(row.text);
  const text = options.wholeText ? views.whole : views.listed;
  return {
    id: row.id,
    type: row.type,
    campusId: row.campusId,
    // Decision 0680: the badge as the clock reads it now.
    author: toUserSummary(row.author, ctx.clock.now()),
    category: row.category,
    text,
    firstMedia: row.firstMedia ? toMediaView(ctx, row.firstMedia) : null,
    imgCount: row.imgCount,
    saveCount: row.saveCount,
    commentCount: row.commentCount,
    createdAt: row.createdAt,
    lastModified: row.lastModified,
    parentId: row.parentId,
    rootId: row.rootId,
    savedByViewer: row.savedByViewer,
    ownedByViewer: viewer !== null && viewer.id === row.author.id,
    hiddenBanner: row.hidden === true ? MODERATION_MESSAGES.hiddenBanner : null,
    listing: toListingView(ctx, row),
    // Decision 0616: lists only (the post page shows the whole reputation line).
    sellerRating:
      row.sellerReputation && !options.wholeText
        ? ratingText({ reviewCount: row.sellerReputation[0], rating: row.sellerReputation[1] })
        : null,
  };
}

/** A row's listing fields as screens show them; `expired` at the context clock's now (decision 0171). */
export function toListingView(
  ctx: AppContext,
  row: Pick<
    SummaryRow,
    "priceCents" | "priceTerms" | "condition" | "listingKind" | "listingStatus" | "lastModified" | "parentId"
  >,
): ListingView {
  const fields = { priceCents: row.priceCents, condition: row.condition, kind: row.listingKind };
  return {
    priceCents: row.priceCents,
    priceTerms: row.priceTerms,
    condition: row.condition,
    kind: row.listingKind,
    status: row.listingStatus,
    expired:
      row.parentId === null &&
      row.listingStatus !== "sold" &&
      isExpired({ ...fields, lastModified: row.lastModified }, ctx.clock.now()),
  };
}
