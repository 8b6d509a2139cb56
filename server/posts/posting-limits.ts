import { and, desc, eq, gt } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { posts, user } from "../db/schema";
import { PostError } from "./errors";
import { POST_MESSAGES } from "./schemas";

// Decision 0116: how many posts and comments one person may create, counted
// from the database (posts_author_created_idx), so the limit holds across processes.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** '1 minute', '12 minutes', '3 hours': the wait, rounded up, as the message says it. */
export function waitText(ms: number): string {
  if (ms <= HOUR_MS) {
    const minutes = Math.max(1, Math.ceil(ms / MINUTE_MS));
    return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  }
  const hours = Math.ceil(ms / HOUR_MS);
  return hours === 1 ? "1 hour" : `${hours} hours`;
}

/**
 * When the author's newest posts and comments since `since` were created, newest first:
 * a range read of posts_author_created_idx (built, not run, for EXPLAIN in indexes.test.ts).
 */
export function recentPostsQuery(db: Queryable, p: { authorId: string; since: Date; limit: number }) {
  return db
    .select({ createdAt: posts.createdAt })
    .from(posts)
    .where(and(eq(posts.authorId, p.authorId), eq(posts.type, "post"), gt(posts.createdAt, p.since)))
    .orderBy(desc(posts.createdAt))
    .limit(p.limit);
}

/**
 * Refuses with PostError 'rate-limited' (429, with when to try again) when the author
 * created `perMinute` posts and comments in the last minute or `perDay` in the last 24
 * hours (ctx.config.postLimits; 0 turns a window off). One index range read of at most
 * max(perMinute, perDay) timestamps. Called before any file is stored, and again in the
 * writing transaction under the author's row lock (lockAuthor), so concurrent requests
 * of one author cannot all slip through.
 */
export async function assertWithinPostingLimits(
  ctx: AppContext,
  db: Queryable,
  authorId: string,
): Promise<void> {
  const { perMinute, perDay } = ctx.config.postLimits;
  if (perMinute === 0 && perDay === 0) return;
  const now = ctx.clock.now().getTime();
  const windowMs = perDay > 0 ? DAY_MS : MINUTE_MS;
  const recent = await recentPostsQuery(db, {
    authorId,
    since: new Date(now - windowMs),
    limit: Math.max(perMinute, perDay),
  });

  // The n-th newest post leaves the window first of the ones that fill it.
  const dayFull = perDay > 0 && recent.length >= perDay;
  const minuteOldest = perMinute > 0 ? recent[perMinute - 1]?.createdAt : undefined;
  const minuteFull = minuteOldest !== undefined && minuteOldest.getTime() > now - MINUTE_MS;
  if (!dayFull && !minuteFull) return;
  const dayOldest = recent[perDay - 1]?.createdAt;
  const retryAt =
    dayFull && dayOldest ? dayOldest.getTime() + DAY_MS : (minuteOldest?.getTime() ?? now) + MINUTE_MS;
  const waitMs = Math.max(1000, retryAt - now);
  const wait = waitText(waitMs);
  throw new PostError(
    "rate-limited",
    dayFull ? POST_MESSAGES.dailyPostLimit(perDay, wait) : POST_MESSAGES.postingTooFast(wait),
    "danger",
    Math.ceil(waitMs / 1000),
  );
}

/** The author's row, locked until the transaction ends: one author's writes take turns on it. */
export async function lockAuthor(db: Queryable, authorId: string): Promise<void> {
  await db.select({ id: user.id }).from(user).where(eq(user.id, authorId)).for("update");
}
