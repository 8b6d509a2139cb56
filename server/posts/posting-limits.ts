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
 * A rolling window's limit (decision 0116; the reports' daily limit, decision 0540, too): given the
 * times of someone's latest events, newest first, how long until they may act again when `limit`
 * of them fall in the last `windowMs` — the `limit`-th newest leaves the window first — or null
 * when they may act now (or `limit` is 0: no limit). At least a second, as Retry-After counts.
 */
export function rollingWindowWait(
  newestFirst: readonly Date[],
  limit: number,
  windowMs: number,
  now: number,
): number | null {
  if (limit <= 0) return null;
  const filling = newestFirst[limit - 1];
  if (!filling || filling.getTime() <= now - windowMs) return null;
  return Math.max(1000, filling.getTime() + windowMs - now);
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

  const times = recent.map((row) => row.createdAt);
  const dayWait = perDay > 0 ? rollingWindowWait(times, perDay, DAY_MS, now) : null;
  const minuteWait = rollingWindowWait(times, perMinute, MINUTE_MS, now);
  const waitMs = dayWait ?? minuteWait;
  if (waitMs === null) return;
  const dayFull = dayWait !== null;
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
