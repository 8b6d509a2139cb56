import { sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { rowsOf } from "../realtime/backlog";
import { TRUST_THRESHOLDS, type TrustLevel } from "./levels.shared";

/**
 * Decision 0660: a student's trust level, recounted by ONE statement on indexed reads — the user
 * row by its key, the reputation summary row by its key (completed trades, reviews, rating:
 * decision 0616), and the newest strikes by `strikes_user_created_idx` — and stored on the user.
 * A level staff locked (`trust_locked_at`) is left as it is. Called by the writers of the facts
 * (verification, profile set-up, the reputation recount, strikes given and overruled) in their
 * transactions, and by every gate before it reads the level, so a level that time alone raised
 * (7, 30, 90 days) is right when it decides something without a job.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The statement (its plan is tested): the level after the recount, or none when no such user. */
export function recountStatement(userId: string, now: Date) {
  const { basic, member, regular } = TRUST_THRESHOLDS;
  const at = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const strikeSince = (days: number) => sql`exists (
      select 1 from strikes s
      where s.user_id = u.id and s.created_at > ${at(days)}::timestamptz and s.overruled_at is null)`;
  return sql`
    update "user" u set trust_level = case
      when u.trust_locked_at is not null then u.trust_level
      when u.banned or u.deleted_at is not null or not (u.verified and u.school_verified) then 0
      when u.profile_set_up and u.created_at <= ${at(regular.days)}::timestamptz
        and coalesce(r.trades_completed, 0) >= ${regular.trades}
        and coalesce(r.review_count, 0) >= ${regular.reviews}
        and coalesce(r.rating, 0) >= ${regular.rating}
        and not ${strikeSince(regular.strikeFreeDays)} then 3
      when u.profile_set_up and u.created_at <= ${at(member.days)}::timestamptz
        and coalesce(r.trades_completed, 0) >= ${member.trades}
        and not ${strikeSince(member.strikeFreeDays)} then 2
      when u.created_at <= ${at(basic.days)}::timestamptz or coalesce(r.trades_completed, 0) >= ${basic.trades} then 1
      else 0 end
    from (select ${userId}::text as id) k
    left join reputations r on r.user_id = k.id
    where u.id = k.id
    returning u.trust_level`;
}

/** Recounts the level at `now` (for callers that hold a time, not a context). */
export async function recountTrustLevelAt(tx: Queryable, userId: string, now: Date): Promise<TrustLevel> {
  const [row] = rowsOf<{ trust_level: number }>(await tx.execute(recountStatement(userId, now)));
  return (row?.trust_level ?? 0) as TrustLevel;
}

/** Decision 0660: recounts and stores the student's level in the caller's transaction; returns it. */
export async function recountTrustLevel(
  tx: Queryable,
  ctx: Pick<AppContext, "clock">,
  userId: string,
): Promise<TrustLevel> {
  return recountTrustLevelAt(tx, userId, ctx.clock.now());
}
