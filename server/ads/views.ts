import { and, desc, eq, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { isUuid } from "../db/ids";
import { preparedStatement } from "../db/prepared";
import { type AdStatus, ads, postAnalytics, posts } from "../db/schema";
import { issueAnalyticsToken } from "./analytics";
import type { AdRow } from "./lifecycle";
import { DAY_MS, timeLeftMs } from "./refunds";
import { DAILY_PRICE_CENTS } from "./schemas.shared";

/** What the ads pages and the post page show of ads (spec 2 §2 Ads, §4 stats): rows read into views, with the post's analytics. */

/** spec 2 §4 'Ad status values and labels'. */
export const STATUS_LABELS: Record<AdStatus, string> = {
  checkout: "Not Paid",
  scheduled: "Scheduled",
  "in review": "In Review",
  active: "Running",
  paused: "Paused",
  rejected: "Rejected",
  stopped: "Stopped",
  completed: "Completed",
};

export interface AdAnalytics {
  views: number;
  accountsReached: number;
  directMessages: number;
  copiedLink: number;
  externalLinkClicks: number;
  profileVisits: number;
}

export interface AdView {
  id: string;
  postId: string;
  title: string;
  status: AdStatus;
  statusLabel: string;
  cta: { type: "website" | "message" | "profile"; label: string; url: string | null };
  days: number;
  runUntilPause: boolean;
  /** spec 2 §4: '--' while checkout, scheduled or in review. */
  statsHidden: boolean;
  budget: number;
  spent: number;
  refunded: number;
  /** Milliseconds of running time left (0 or less: 'Expired'). */
  timeLeftMs: number;
  startTime: Date | null;
  endTime: Date | null;
  createdAt: Date;
  postText: string;
  analytics: AdAnalytics;
}

const NO_ANALYTICS: AdAnalytics = {
  views: 0,
  accountsReached: 0,
  directMessages: 0,
  copiedLink: 0,
  externalLinkClicks: 0,
  profileVisits: 0,
};

const STATS_HIDDEN: readonly AdStatus[] = ["checkout", "scheduled", "in review"];

/** Cents spent: every started day of running time, never more than was kept (budget − refunds). */
export function spentCents(
  ad: Pick<
    AdRow,
    "status" | "startTime" | "endedAt" | "pausedAt" | "timePausedMs" | "amountBudgeted" | "amountRefunded"
  >,
  now: Date,
): number {
  const kept = ad.amountBudgeted - ad.amountRefunded;
  if (!ad.startTime) return 0;
  if (ad.status === "stopped" || ad.status === "completed") return kept;
  const until = ad.status === "paused" && ad.pausedAt ? ad.pausedAt : now;
  const ranMs = Math.max(0, until.getTime() - ad.startTime.getTime() - ad.timePausedMs);
  return Math.min(kept, Math.ceil(ranMs / DAY_MS) * DAILY_PRICE_CENTS);
}

const adViewColumns = {
  ad: ads,
  postText: posts.textPlain,
  analytics: {
    views: postAnalytics.views,
    accountsReached: postAnalytics.accountsReached,
    directMessages: postAnalytics.directMessages,
    copiedLink: postAnalytics.copiedLink,
    externalLinkClicks: postAnalytics.externalLinkClicks,
    profileVisits: postAnalytics.profileVisits,
  },
};

type AdViewRow = {
  ad: AdRow;
  postText: string;
  analytics: AdAnalytics | null;
};

function toAdView(row: AdViewRow, now: Date): AdView {
  const { ad } = row;
  return {
    id: ad.id,
    postId: ad.postId,
    title: ad.title,
    status: ad.status,
    statusLabel: STATUS_LABELS[ad.status],
    cta: { type: ad.ctaType, label: ad.ctaLabel, url: ad.ctaUrl },
    days: ad.days,
    runUntilPause: ad.runUntilPause,
    statsHidden: STATS_HIDDEN.includes(ad.status),
    budget: ad.amountBudgeted,
    spent: spentCents(ad, now),
    refunded: ad.amountRefunded,
    timeLeftMs: timeLeftMs(ad, now),
    startTime: ad.startTime,
    endTime: ad.endTimeAdjusted,
    createdAt: ad.createdAt,
    postText: row.postText.slice(0, 120),
    // spec 2 §6: the numbers of the viewer's own ads' posts only (the query is by owner).
    analytics: row.analytics ?? NO_ANALYTICS,
  };
}

export const ADS_PAGE_SIZE = 50;

/**
 * spec 2 §7 'User ads by user._id … createdAt descending': the viewer's ads (newest first,
 * ads_user_idx), the most recent ADS_PAGE_SIZE.
 */
export async function listOwnAds(ctx: AppContext, viewer: Viewer): Promise<AdView[]> {
  const now = ctx.clock.now();
  const rows = await ctx.db
    .select(adViewColumns)
    .from(ads)
    .innerJoin(posts, eq(posts.id, ads.postId))
    .leftJoin(postAnalytics, eq(postAnalytics.postId, ads.postId))
    .where(eq(ads.userId, viewer.id))
    .orderBy(desc(ads.createdAt), desc(ads.id))
    .limit(ADS_PAGE_SIZE);
  return rows.map((row) => toAdView(row, now));
}

/** spec 2 §2 '/ads/{adID}': one of the viewer's ads, or null ('Sorry, that ad has been deleted.'). */
export async function getOwnAd(ctx: AppContext, viewer: Viewer, adId: string): Promise<AdView | null> {
  if (!isUuid(adId)) return null;
  const [row] = await ctx.db
    .select(adViewColumns)
    .from(ads)
    .innerJoin(posts, eq(posts.id, ads.postId))
    .leftJoin(postAnalytics, eq(postAnalytics.postId, ads.postId))
    .where(and(eq(ads.id, adId), eq(ads.userId, viewer.id)))
    .limit(1);
  return row ? toAdView(row, ctx.clock.now()) : null;
}

/** What the post page shows of a post's ads (spec 2 §4 'Owner post buttons'). */
export interface PostAdState {
  /** 'Boosted' label: an active ad (shown to everyone). */
  boosted: boolean;
  /** For the owner only: the latest ad, for the buttons and 'Ad Paused'. */
  latest: { id: string; status: AdStatus } | null;
  /** While the ad runs: what the page counts a view or a click with (decision 0467). */
  analyticsToken: string | null;
}

export async function getPostAdState(
  ctx: AppContext,
  viewer: Viewer | null,
  ref: { postId: string; campusId: string },
): Promise<PostAdState> {
  const { postId } = ref;
  if (!isUuid(postId)) return { boosted: false, latest: null, analyticsToken: null };
  // Read on every post page: prepared once per database (decision 0105).
  const statement = preparedStatement(ctx.db, "post_latest_ad", () =>
    ctx.db
      .select({ id: ads.id, status: ads.status, userId: ads.userId, end: ads.endTimeAdjusted })
      .from(ads)
      .where(eq(ads.postId, sql.placeholder("postId")))
      .orderBy(desc(ads.createdAt))
      .limit(1),
  );
  const rows = (await statement.execute({ postId })) as {
    id: string;
    status: AdStatus;
    userId: string;
    end: Date | null;
  }[];
  const latest = rows[0];
  if (!latest) return { boosted: false, latest: null, analyticsToken: null };
  const now = ctx.clock.now();
  const running = latest.status === "active" && latest.end !== null && latest.end > now;
  const status: AdStatus = latest.status === "active" && !running ? "completed" : latest.status;
  return {
    boosted: running,
    latest: viewer && viewer.id === latest.userId ? { id: latest.id, status } : null,
    analyticsToken: running ? issueAnalyticsToken(ctx, ref) : null,
  };
}
