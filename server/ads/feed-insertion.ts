import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { preparedStatement } from "../db/prepared";
import { ads, posts, user } from "../db/schema";
import type { Page } from "../lists/pages";
import { shownTo } from "../moderation/visibility";
import { PostError } from "../posts/errors";
import { type FeedInput, listFeed, listReads } from "../posts/feed";
import { POST_MESSAGES } from "../posts/schemas";
import { type PostSummary, summaryColumns, toSummary } from "../posts/views";
import { issueAnalyticsToken } from "./analytics";
import type { FeedItem, Sponsorship } from "./sponsored.shared";

export type { FeedItem, Sponsorship };

/** spec 2 §9 'An ad is inserted after every 4 posts'. */
export const SPONSORED_EVERY = 4;
/** At most this many running ads take turns in a campus's feed (the query's LIMIT). */
export const ACTIVE_ADS_LIMIT = 30;

/**
 * Where the ad cycle stands at a page boundary (decision 0274), carried in the feed's cursor:
 * the next ad's index, the sponsored places so far, and the posts shown since the last one.
 */
export interface AdCycle {
  next: number;
  slot: number;
  since: number;
}

export const CYCLE_START: AdCycle = { next: 0, slot: 0, since: 0 };

export type Interleaved<P, A> = { kind: "post"; post: P } | { kind: "ad"; ad: A; slot: number };

/**
 * spec 2 §2 'Sponsored posts: active ads … inserted after every 4th post, cycling through the
 * ads' (decision 0274). Pure. Counting continues across pages (`cycle.since`), so there is an
 * ad after every 4th post of the whole scroll; the ads are taken in turn from `cycle.next`, and
 * a page never shows one ad twice: when a page has more places than there are ads, the extra
 * places stay empty. The returned cycle is the next page's start.
 */
export function interleaveAds<P, A>(
  items: readonly P[],
  adList: readonly A[],
  cycle: AdCycle = CYCLE_START,
  every = SPONSORED_EVERY,
): { entries: Interleaved<P, A>[]; cycle: AdCycle } {
  const entries: Interleaved<P, A>[] = [];
  const count = adList.length;
  let next = count > 0 ? cycle.next % count : 0;
  let slot = cycle.slot;
  let since = cycle.since;
  let used = 0;
  for (const post of items) {
    entries.push({ kind: "post", post });
    since++;
    if (since < every) continue;
    since = 0;
    if (used >= count) continue;
    entries.push({ kind: "ad", ad: adList[next] as A, slot });
    next = (next + 1) % count;
    slot++;
    used++;
  }
  return { entries, cycle: { next, slot, since } };
}

const MAX_CYCLE = 1_000_000;

/**
 * The feed's cursor: the posts' keyset cursor (server/lists/cursor.ts, base64url) and the ad
 * cycle, joined with dots (which base64url never holds). A cursor without the cycle (an old
 * link) starts it over; a tampered one is refused as the posts' cursor is.
 */
export function splitFeedCursor(cursor: string | null | undefined): {
  postCursor: string | null;
  cycle: AdCycle;
} {
  if (!cursor) return { postCursor: null, cycle: CYCLE_START };
  const parts = cursor.split(".");
  if (parts.length === 1) return { postCursor: cursor, cycle: CYCLE_START };
  const [postCursor, ...numbers] = parts;
  const values = numbers.map((part) => (/^\d{1,7}$/.test(part) ? Number(part) : Number.NaN));
  if (
    !postCursor ||
    values.length !== 3 ||
    values.some((value) => !Number.isInteger(value) || value < 0 || value > MAX_CYCLE)
  ) {
    throw new PostError("invalid-input", POST_MESSAGES.badCursor);
  }
  const [next, slot, since] = values as [number, number, number];
  return { postCursor, cycle: { next, slot, since: since % SPONSORED_EVERY } };
}

export function joinFeedCursor(postCursor: string, cycle: AdCycle): string {
  return [postCursor, cycle.next, cycle.slot, cycle.since].join(".");
}

/** A running ad of the feed with its post as cards show it. */
export interface ActiveAd {
  adId: string;
  cta: Sponsorship["cta"];
  analyticsToken: string;
  post: PostSummary;
}

/**
 * spec 2 §7 'Active ads: status equals active and end_time_adjusted after now, ordered by
 * end_time_adjusted ascending then createdAt descending, optional limit; each resolves its
 * post' — one query (ads_active_idx), the post and author joined, for the campus's feed.
 */
export async function listActiveAds(
  ctx: AppContext,
  viewer: Viewer | null,
  campusId: string,
  limit = ACTIVE_ADS_LIMIT,
): Promise<ActiveAd[]> {
  const db = listReads(ctx, viewer);
  // Every signed-in /home reads it: prepared once per shape (decision 0105, server/db/prepared.ts).
  const statement = preparedStatement(db, `active_ads_${viewer ? "viewer" : "visitor"}`, () =>
    db
      .select({
        ...summaryColumns(viewer ? { id: sql.placeholder("viewerId") } : null),
        adId: ads.id,
        ctaType: ads.ctaType,
        ctaLabel: ads.ctaLabel,
        ctaUrl: ads.ctaUrl,
      })
      .from(ads)
      .innerJoin(posts, eq(posts.id, ads.postId))
      .innerJoin(user, eq(user.id, posts.authorId))
      .where(
        and(
          eq(ads.campusId, sql.placeholder("campusId")),
          eq(ads.status, "active"),
          gt(ads.endTimeAdjusted, sql.placeholder("now")),
          // Decision 0546: no slot for a hidden or removed post, nor for a suspended author's ad.
          shownTo(viewer ? sql.placeholder("viewerId") : null, sql.placeholder("now")),
        ),
      )
      .orderBy(asc(ads.endTimeAdjusted), desc(ads.createdAt))
      .limit(sql.placeholder("limit")),
  );
  const rows = (await statement.execute({
    viewerId: viewer?.id,
    campusId,
    // As the lists pass their cut-off: a timestamp text both drivers read the same way.
    now: ctx.clock.now().toISOString(),
    limit,
  })) as ActiveAdRow[];
  return rows.map((row) => ({
    adId: row.adId,
    cta: { type: row.ctaType, label: row.ctaLabel, url: row.ctaUrl },
    analyticsToken: issueAnalyticsToken(ctx, { postId: row.id, campusId }),
    post: toSummary(ctx, viewer, row),
  }));
}

type ActiveAdRow = Parameters<typeof toSummary>[2] & {
  adId: string;
  ctaType: ActiveAd["cta"]["type"];
  ctaLabel: ActiveAd["cta"]["label"];
  ctaUrl: ActiveAd["cta"]["url"];
};

/**
 * spec 2 §2 /home with its sponsored posts: the feed page (server/posts/feed.ts listFeed,
 * unchanged) with the campus's running ads placed by interleaveAds, the cycle carried on in
 * the next page's cursor. The page loader and the next pages' JSON both call this.
 */
export async function listFeedWithAds(
  ctx: AppContext,
  viewer: Viewer | null,
  input: FeedInput,
): Promise<Page<FeedItem>> {
  const { postCursor, cycle } = splitFeedCursor(input.cursor);
  const page = await listFeed(ctx, viewer, { ...input, cursor: postCursor });
  const running = page.items.length > 0 ? await listActiveAds(ctx, viewer, input.campusId) : [];
  const { entries, cycle: after } = interleaveAds(page.items, running, cycle);
  const items: FeedItem[] = entries.map((entry) =>
    entry.kind === "post"
      ? entry.post
      : {
          ...entry.ad.post,
          sponsored: {
            adId: entry.ad.adId,
            slot: entry.slot,
            cta: entry.ad.cta,
            analyticsToken: entry.ad.analyticsToken,
          },
        },
  );
  return { items, nextCursor: page.nextCursor ? joinFeedCursor(page.nextCursor, after) : null };
}
