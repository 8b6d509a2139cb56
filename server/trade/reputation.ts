import { sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { rowsOf } from "../realtime/backlog";
import { recountTrustLevel } from "../trust/recount";
import { RATING_MIN_REVIEWS, REPEAT_PAIR_DAYS, type ReputationSummary } from "./review-rules.shared";

/**
 * A member's reputation (decision 0616): the `reputations` summary row, kept by the writers
 * that change it — a review published (by the second review or by the 14 days), a deal
 * completed, a reviewer banned or unbanned — and by the hourly reply-speed job. Cards, headers
 * and the profile read the row and never aggregate. Nothing is filled in: no reviews, no stars.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const REPEAT_PAIR_MS = REPEAT_PAIR_DAYS * DAY_MS;
/** Decision 0616: reply speed is read from the conversations of the last 90 days. */
const REPLY_WINDOW_DAYS = 90;
/** Decision 0616: the reply-speed job's bound per run. */
export const REPLY_SPEED_BATCH = 200;

interface CountedReview {
  author_id: string;
  stars: number;
  published: Date | string;
}

/**
 * Decision 0616: which published reviews count: a repeat pair (the same author about the same
 * subject) once per 90 days — the first of each 90-day run counts — and never a review by an
 * account banned since (a banned account keeps a row in banned_emails, whichever staff path
 * banned it, or carries user.banned). Exported for the tests of the rule.
 */
export function countedStars(rows: readonly CountedReview[]): number[] {
  const lastCounted = new Map<string, number>();
  const stars: number[] = [];
  const ordered = [...rows].sort((a, b) => new Date(a.published).getTime() - new Date(b.published).getTime());
  for (const row of ordered) {
    const at = new Date(row.published).getTime();
    const last = lastCounted.get(row.author_id);
    if (last !== undefined && at - last < REPEAT_PAIR_MS) continue;
    lastCounted.set(row.author_id, at);
    stars.push(row.stars);
  }
  return stars;
}

/**
 * Recounts one member's row from the tables (decision 0616): their published, unremoved reviews
 * by accounts not banned (the repeat-pair rule applied), and their completed deals on either
 * side. The reply speed is the job's and is kept. Safe to call any number of times: the offers'
 * completion calls it, and the review job calls it again for both people when a deal's 14 days
 * end, so a missed call heals.
 */
export async function recountReputation(tx: Queryable, ctx: Pick<AppContext, "clock">, userId: string) {
  const now = ctx.clock.now();
  const reviewRows = rowsOf<CountedReview>(
    await tx.execute(sql`
      select r.author_id, r.stars, r.publishes_at as published
      from reviews r
      join "user" a on a.id = r.author_id
      where r.subject_id = ${userId} and r.publishes_at <= ${now.toISOString()}::timestamptz
        and r.moderation_state is null and not a.banned
        and not exists (select 1 from banned_emails b where b.user_id = r.author_id)`),
  );
  const stars = countedStars(reviewRows);
  const reviewCount = stars.length;
  const rating =
    reviewCount >= RATING_MIN_REVIEWS ? stars.reduce((sum, value) => sum + value, 0) / reviewCount : null;
  await tx.execute(sql`
    insert into reputations (user_id, review_count, rating, trades_completed, updated_at)
    select ${userId}, ${reviewCount}, ${rating}::real,
      (select count(*) from deals where seller_id = ${userId} and state = 'completed')
        + (select count(*) from deals where buyer_id = ${userId} and state = 'completed'),
      ${now.toISOString()}::timestamptz
    where exists (select 1 from "user" where id = ${userId})
    on conflict (user_id) do update set review_count = excluded.review_count, rating = excluded.rating,
      trades_completed = excluded.trades_completed, updated_at = excluded.updated_at`);
  // Decision 0660: trades, reviews and the rating raise the trust level; recounted beside the row.
  await recountTrustLevel(tx, ctx, userId);
}

/**
 * Decision 0616: a reviewer was banned (or the ban lifted): every member they reviewed is
 * recounted, in the ban's transaction. Called by both ban writers (the moderators' Ban and the
 * console's).
 */
export async function recountReviewsBy(tx: Queryable, ctx: Pick<AppContext, "clock">, authorId: string) {
  const subjects = rowsOf<{ subject_id: string }>(
    await tx.execute(sql`select distinct subject_id from reviews where author_id = ${authorId}`),
  );
  for (const row of subjects) await recountReputation(tx, ctx, row.subject_id);
}

/**
 * Decision 0616: the member's median first reply over the last 90 days: in each conversation
 * where the other person spoke first, the time from their first message to the member's first
 * message after it. Null without any.
 */
async function replySeconds(tx: Queryable, userId: string, since: Date): Promise<number | null> {
  const [row] = rowsOf<{ seconds: number | string | null }>(
    await tx.execute(sql`
      select percentile_cont(0.5) within group (order by extract(epoch from (r.created_at - f.created_at))) as seconds
      from chat_members cm
      join lateral (
        select m.seq, m.created_at from chat_messages m
        where m.chat_id = cm.chat_id and m.sender_id <> ${userId} and m.system_event is null
        order by m.seq limit 1
      ) f on true
      join lateral (
        select m.created_at from chat_messages m
        where m.chat_id = cm.chat_id and m.sender_id = ${userId} and m.seq > f.seq and m.system_event is null
        order by m.seq limit 1
      ) r on true
      where cm.user_id = ${userId} and f.created_at >= ${since.toISOString()}::timestamptz`),
  );
  if (!row || row.seconds === null) return null;
  return Math.round(Number(row.seconds));
}

/**
 * The hourly reply-speed job (decision 0616), bounded to REPLY_SPEED_BATCH members a run: those
 * who were written to in a new conversation in the last two hours, then the rows least recently
 * counted. Writes only `reply_seconds` (the rest is the writers').
 */
export async function recountReplySpeeds(ctx: AppContext): Promise<{ counted: number }> {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - REPLY_WINDOW_DAYS * DAY_MS);
  const recent = new Date(now.getTime() - 2 * 60 * 60 * 1000);
  const candidates = rowsOf<{ user_id: string }>(
    await ctx.db.execute(sql`
      (select to_user_id as user_id from chats where created_at >= ${recent.toISOString()}::timestamptz
        limit ${REPLY_SPEED_BATCH})
      union
      (select user_id from reputations order by updated_at limit ${REPLY_SPEED_BATCH})`),
  ).slice(0, REPLY_SPEED_BATCH);
  for (const { user_id: userId } of candidates) {
    const seconds = await replySeconds(ctx.db, userId, since);
    await ctx.db.execute(sql`
      insert into reputations (user_id, reply_seconds, updated_at)
      select ${userId}, ${seconds}, ${now.toISOString()}::timestamptz
      where exists (select 1 from "user" where id = ${userId})
      on conflict (user_id) do update set reply_seconds = excluded.reply_seconds, updated_at = excluded.updated_at`);
  }
  return { counted: candidates.length };
}

/**
 * The reputation line's data (decision 0616): one indexed query, the member's row by primary key
 * joined to the summary row by its primary key. Null when the member does not exist.
 */
export async function getReputation(db: Queryable, userId: string): Promise<ReputationSummary | null> {
  const [row] = rowsOf<{
    created_at: Date | string;
    review_count: number | null;
    rating: number | null;
    trades_completed: number | null;
    reply_seconds: number | null;
  }>(await db.execute(reputationQuery(userId)));
  if (!row) return null;
  return toSummary(row);
}

/** The one query getReputation runs (its EXPLAIN is tested). */
export function reputationQuery(userId: string) {
  return sql`
    select u.created_at, rep.review_count, rep.rating, rep.trades_completed, rep.reply_seconds
    from "user" u left join reputations rep on rep.user_id = u.id
    where u.id = ${userId}`;
}

export function toSummary(row: {
  created_at: Date | string;
  review_count: number | null;
  rating: number | null;
  trades_completed: number | null;
  reply_seconds: number | null;
}): ReputationSummary {
  return {
    reviewCount: Number(row.review_count ?? 0),
    rating: row.rating === null ? null : Number(row.rating),
    tradesCompleted: Number(row.trades_completed ?? 0),
    replySeconds: row.reply_seconds === null ? null : Number(row.reply_seconds),
    memberSince: new Date(row.created_at).toISOString(),
  };
}
