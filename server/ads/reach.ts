import { sql } from "drizzle-orm";
import type { AppContext } from "../context";

/**
 * The boost page's 'Estimated daily reach' (spec 2 §9: '590-1,500 for fixed duration, 980-2,600
 * for run until pause'), bounded by who the campus has to reach (decision 0466,
 * docs/product/2-marketplace.md 'Estimated daily reach').
 */
export const SPEC_REACH = {
  fixed: { low: 590, high: 1500 },
  untilPause: { low: 980, high: 2600 },
} as const;
export type ReachMode = keyof typeof SPEC_REACH;

export interface ReachRange {
  low: number;
  high: number;
}

/** 'Active members': signed in within this many days (a session used then, decision 0466). */
export const ACTIVE_MEMBER_DAYS = 30;
/** How long a campus's count is reused: it moves slowly, and the boost page is read often. */
export const ACTIVE_MEMBERS_CACHE_MS = 10 * 60 * 1000;

/**
 * The spec's range where the campus has at least its upper figure of other active members;
 * otherwise everyone the campus has (the seller excluded) at the top, and the bottom kept at the
 * spec's proportion of the top (590/1,500 fixed, 980/2,600 until paused), rounded.
 */
export function estimateDailyReach(otherActiveMembers: number, mode: ReachMode): ReachRange {
  const spec = SPEC_REACH[mode];
  const audience = Math.max(0, Math.floor(otherActiveMembers));
  if (audience >= spec.high) return { ...spec };
  return { low: Math.round((audience * spec.low) / spec.high), high: audience };
}

/** '590-1,500 people', '1-2 people', '1 person', '0 people'. */
export function formatReach(range: ReachRange): string {
  const number = (value: number) => value.toLocaleString("en-US");
  if (range.low === range.high) return `${number(range.high)} ${range.high === 1 ? "person" : "people"}`;
  return `${number(range.low)}-${number(range.high)} people`;
}

/**
 * How many members of the campus were signed in within ACTIVE_MEMBER_DAYS: distinct users of the
 * campus, not banned, with a session used since then (better-auth moves a session's updated_at
 * when it is used, at most daily; a session unused for 30 days has expired). Served by
 * user_campus_school_verified_idx (the campus's users) and session_user_id_idx (their sessions).
 */
async function countActiveMembers(db: AppContext["db"], campusId: string, now: Date): Promise<number> {
  const since = new Date(now.getTime() - ACTIVE_MEMBER_DAYS * 24 * 60 * 60 * 1000);
  const result = await db.execute(sql`
    select count(*)::int as active from "user" u
    where u.campus_id = ${campusId} and not u.banned
      and exists (select 1 from session s where s.user_id = u.id and s.updated_at > ${since.toISOString()})
  `);
  const [row] = (result as unknown as { rows: { active: number | string }[] }).rows;
  return Number(row?.active ?? 0);
}

const cached = new WeakMap<AppContext["db"], Map<string, { active: number; at: number }>>();

/** The campus's active members, counted at most every ACTIVE_MEMBERS_CACHE_MS per database. */
export async function getActiveMembers(ctx: AppContext, campusId: string): Promise<number> {
  const now = ctx.clock.now();
  let campuses = cached.get(ctx.db);
  if (!campuses) {
    campuses = new Map();
    cached.set(ctx.db, campuses);
  }
  const hit = campuses.get(campusId);
  if (hit && now.getTime() - hit.at < ACTIVE_MEMBERS_CACHE_MS && hit.at <= now.getTime()) return hit.active;
  const active = await countActiveMembers(ctx.db, campusId, now);
  campuses.set(campusId, { active, at: now.getTime() });
  return active;
}

/**
 * The boost page's two reach texts for a seller of the campus. The seller is an active member
 * (signed in to boost) and never part of their own ad's reach (decision 0273), hence the - 1.
 */
export async function getBoostReach(ctx: AppContext, campusId: string): Promise<Record<ReachMode, string>> {
  const others = Math.max(0, (await getActiveMembers(ctx, campusId)) - 1);
  return {
    fixed: formatReach(estimateDailyReach(others, "fixed")),
    untilPause: formatReach(estimateDailyReach(others, "untilPause")),
  };
}
