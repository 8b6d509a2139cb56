import { asc, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { newestBackup } from "../backups/record";
import type { Queryable } from "../db/client";
import { campuses } from "../db/schema";
import { APP_JOBS } from "../jobs/jobs";
import type { JobDefinition } from "../jobs/registry";
import { overdueBefore } from "../moderation/scope";
import { requireSiteAdmin } from "../staff/roles";
import { findProblems, type Problem, type ProblemContext } from "./problems";

/**
 * Decision 0551: the operator console's dashboard (/admin): the problems of the site now, and
 * below them each campus's last 7 and 30 days. Site admins only: anyone else gets the 404
 * (decision 0520).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
export const DASHBOARD_WINDOWS = [7, 30] as const;
export type DashboardWindow = (typeof DASHBOARD_WINDOWS)[number];

/** One campus's counts over a window of days. */
export interface WindowCounts {
  /** Accounts made on the campus in the window (deleted ones left out). */
  newStudents: number;
  /** Of those, the ones whose school e-mail is verified: the campus's members (spec 1 §2). */
  verifiedStudents: number;
  /** Listings posted (top-level posts, not the 'new user' ones). */
  listings: number;
  /** Deals completed in the window (decision 0600): the listing handed over and marked sold. */
  completedTrades: number;
  /** Payments less refunds made in the window, in cents (USD). */
  revenueCents: number;
}

/** A campus's row of the dashboard (decision 0551). */
export interface CampusActivity {
  campusId: string;
  name: string;
  generic: boolean;
  windows: Record<DashboardWindow, WindowCounts>;
  /** Reports waiting now, and those of them past the 72 hours of decision 0541. */
  openReports: number;
  overdueReports: number;
  /** Ads running now. */
  runningAds: number;
}

export interface Dashboard {
  checkedAt: Date;
  problems: Problem[];
  /** The newest backup made with `npm run backup` (decision 0580), or null when none was. */
  newestBackup: { file: string; createdAt: Date } | null;
  campuses: CampusActivity[];
}

interface ActivityRow {
  campus_id: string;
  new7: number;
  verified7: number;
  new30: number;
  verified30: number;
  listings7: number;
  listings30: number;
  trades7: number;
  trades30: number;
  revenue7: number;
  revenue30: number;
  open_reports: number;
  overdue_reports: number;
  running_ads: number;
}

/**
 * Every campus's counts in one statement: each part reads its own index or a small table (the
 * month's listings one range of posts_replies_idx, parent_id null; completed trades
 * deals_completed_idx; open items moderation_items_open_idx).
 */
async function campusActivity(db: Queryable, now: Date): Promise<Map<string, ActivityRow>> {
  const since7 = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const since30 = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const overdue = overdueBefore(now).toISOString();
  const result = await db.execute(sql`
    with students as (
      select campus_id,
        count(*) filter (where created_at >= ${since7}::timestamptz)::int as new7,
        count(*) filter (where created_at >= ${since7}::timestamptz and school_verified)::int as verified7,
        count(*)::int as new30,
        count(*) filter (where school_verified)::int as verified30
      from "user"
      where created_at >= ${since30}::timestamptz and deleted_at is null
      group by campus_id
    ), money as (
      select campus_id,
        coalesce(sum(case when kind = 'payment' then amount else -amount end)
          filter (where created_at >= ${since7}::timestamptz), 0)::int as revenue7,
        coalesce(sum(case when kind = 'payment' then amount else -amount end), 0)::int as revenue30
      from payments
      where created_at >= ${since30}::timestamptz and status = 'succeeded'
      group by campus_id
    ), reports as (
      select campus_id, count(*)::int as open_reports,
        count(*) filter (where opened_at < ${overdue}::timestamptz)::int as overdue_reports
      from moderation_items where state = 'open'
      group by campus_id
    ), listings as (
      select campus_id,
        count(*) filter (where created_at >= ${since7}::timestamptz)::int as listings7,
        count(*)::int as listings30
      from posts
      where parent_id is null and type = 'post' and created_at >= ${since30}::timestamptz
      group by campus_id
    ), trades as (
      select campus_id,
        count(*) filter (where completed_at >= ${since7}::timestamptz)::int as trades7,
        count(*)::int as trades30
      from deals
      where state = 'completed' and completed_at >= ${since30}::timestamptz
      group by campus_id
    ), running as (
      select campus_id, count(*)::int as running_ads from ads where status = 'active' group by campus_id
    )
    select c.id as campus_id,
      coalesce(s.new7, 0) as new7, coalesce(s.verified7, 0) as verified7,
      coalesce(s.new30, 0) as new30, coalesce(s.verified30, 0) as verified30,
      coalesce(l.listings7, 0) as listings7, coalesce(l.listings30, 0) as listings30,
      coalesce(t.trades7, 0) as trades7, coalesce(t.trades30, 0) as trades30,
      coalesce(m.revenue7, 0) as revenue7, coalesce(m.revenue30, 0) as revenue30,
      coalesce(r.open_reports, 0) as open_reports, coalesce(r.overdue_reports, 0) as overdue_reports,
      coalesce(a.running_ads, 0) as running_ads
    from campuses c
    left join students s on s.campus_id = c.id
    left join money m on m.campus_id = c.id
    left join reports r on r.campus_id = c.id
    left join running a on a.campus_id = c.id
    left join listings l on l.campus_id = c.id
    left join trades t on t.campus_id = c.id`);
  const rows = (result as unknown as { rows: ActivityRow[] }).rows;
  return new Map(rows.map((row) => [row.campus_id, row]));
}

/**
 * Decision 0551: the dashboard. `jobs` are the registry's (APP_JOBS unless a test passes its own);
 * `migrations` the folder whose journal the database is compared with (the build's).
 */
export async function getDashboard(
  ctx: ProblemContext,
  viewer: Pick<Viewer, "id"> | null,
  options: { jobs?: readonly JobDefinition[]; migrations?: string } = {},
): Promise<Dashboard> {
  await requireSiteAdmin(ctx, viewer);
  const now = ctx.clock.now();
  const backup = await newestBackup(ctx.db);
  const [problems, activity, campusRows] = await Promise.all([
    findProblems(ctx, { jobs: options.jobs ?? APP_JOBS, migrations: options.migrations, backup }),
    campusActivity(ctx.db, now),
    ctx.db
      .select({ id: campuses.id, name: campuses.name, generic: campuses.generic })
      .from(campuses)
      .orderBy(campuses.generic, asc(campuses.name)),
  ]);
  return {
    checkedAt: now,
    problems,
    newestBackup: backup,
    campuses: campusRows.map((campus) => {
      const row = activity.get(campus.id);
      const n = (value: number | undefined) => Number(value ?? 0);
      return {
        campusId: campus.id,
        name: campus.name,
        generic: campus.generic,
        windows: {
          7: {
            newStudents: n(row?.new7),
            verifiedStudents: n(row?.verified7),
            listings: n(row?.listings7),
            completedTrades: n(row?.trades7),
            revenueCents: n(row?.revenue7),
          },
          30: {
            newStudents: n(row?.new30),
            verifiedStudents: n(row?.verified30),
            listings: n(row?.listings30),
            completedTrades: n(row?.trades30),
            revenueCents: n(row?.revenue30),
          },
        },
        openReports: n(row?.open_reports),
        overdueReports: n(row?.overdue_reports),
        runningAds: n(row?.running_ads),
      };
    }),
  };
}
