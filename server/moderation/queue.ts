import { and, asc, desc, eq, exists, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { moderationItems, REPORT_REASONS, type ReportReason, reports } from "../db/schema";
import { cursorTime, decodeCursor } from "../lists/cursor";
import { type Page, toPage } from "../lists/pages";
import { requireStaff } from "../staff/roles";
import { itemExcerpts } from "./excerpts";
import { ITEM_KIND_LABELS, QUEUE_PAGE_SIZE, REPORT_REASON_LABELS } from "./rules.shared";
import { isOverdue, itemsInScope, overdueBefore } from "./scope";

/** The queue's filters (decision 0541), as the page's query string gives them; anything else is ignored. */
export interface QueueFilters {
  state: "open" | "decided";
  overdue: boolean;
  reason: ReportReason | null;
  campusId: string | null;
}

export function readQueueFilters(params: Readonly<Record<string, string | null | undefined>>): QueueFilters {
  const reason = (REPORT_REASONS as readonly string[]).includes(params.reason ?? "")
    ? (params.reason as ReportReason)
    : null;
  const state = params.state === "decided" ? "decided" : "open";
  return {
    state,
    overdue: state === "open" && params.overdue === "1",
    reason,
    campusId: params.campus?.trim() ? params.campus.trim().toLowerCase() : null,
  };
}

export interface ReasonCount {
  reason: ReportReason;
  label: string;
  count: number;
}

/** One row of /mod. */
export interface QueueRow {
  id: string;
  kind: (typeof moderationItems.$inferSelect)["targetKind"];
  kindLabel: string;
  campusId: string;
  campusName: string;
  excerpt: string;
  /** The student whose content or account it is (an appeal's: the appellant), or null when gone. */
  studentName: string | null;
  reasons: ReasonCount[];
  /** Decisions 0650, 0653: why the product opened the item itself (no reporters), or null. */
  autoReason: string | null;
  reporters: number;
  weight: number;
  openedAt: string;
  decidedAt: string | null;
  decision: string | null;
  overdue: boolean;
  hidden: boolean;
  toAdmins: boolean;
}

export interface QueuePage extends Page<QueueRow> {
  filters: QueueFilters;
  siteAdmin: boolean;
  /** The campuses the campus filter offers: every school for a site admin, theirs for a moderator of several. */
  campuses: { id: string; name: string }[];
  now: string;
}

/**
 * Decision 0541: /mod, the staff member's queue. Open items oldest first (decided ones most
 * recently decided first), keyset pages of QUEUE_PAGE_SIZE, in their scope: a campus moderator
 * sees their campuses' items not routed to site admins, a site admin every item (a campus
 * filter narrows it). Filters: state, overdue, reason (an item with any report of it).
 * Anyone but staff gets the not-found error.
 */
export async function listQueue(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  filters: QueueFilters,
  cursor: string | null = null,
): Promise<QueuePage> {
  const staff = await requireStaff(ctx, viewer, null);
  const now = ctx.clock.now();
  const key = cursor ? decodeCursor(cursor, "uuid") : null;
  const open = filters.state === "open";
  const time = open ? moderationItems.openedAt : moderationItems.decidedAt;
  const where: (SQL | undefined)[] = [
    itemsInScope(staff),
    eq(moderationItems.state, filters.state),
    filters.campusId ? eq(moderationItems.campusId, filters.campusId) : undefined,
    filters.overdue ? lt(moderationItems.openedAt, overdueBefore(now)) : undefined,
    filters.reason
      ? exists(
          ctx.db
            .select({ one: sql`1` })
            .from(reports)
            .where(and(eq(reports.itemId, moderationItems.id), eq(reports.reason, filters.reason))),
        )
      : undefined,
    key
      ? open
        ? sql`(${time}, ${moderationItems.id}) > (${key.time}::timestamptz, ${key.id}::uuid)`
        : sql`(${time}, ${moderationItems.id}) < (${key.time}::timestamptz, ${key.id}::uuid)`
      : undefined,
  ];
  const rows = await ctx.db
    .select({
      cursorTime: cursorTime(time),
      id: moderationItems.id,
      campusId: moderationItems.campusId,
      targetKind: moderationItems.targetKind,
      targetId: moderationItems.targetId,
      targetUserId: moderationItems.targetUserId,
      state: moderationItems.state,
      toAdmins: moderationItems.toAdmins,
      hidden: moderationItems.hidden,
      openedAt: moderationItems.openedAt,
      decidedAt: moderationItems.decidedAt,
      decision: moderationItems.decision,
      autoReason: moderationItems.autoReason,
    })
    .from(moderationItems)
    .where(and(...where))
    .orderBy(...(open ? [asc(time), asc(moderationItems.id)] : [desc(time), desc(moderationItems.id)]))
    .limit(QUEUE_PAGE_SIZE + 1);
  const kept = rows.slice(0, QUEUE_PAGE_SIZE);
  const [tallies, excerpts] = await Promise.all([reportTallies(ctx, kept), itemExcerpts(ctx.db, kept)]);
  const page = toPage(
    rows,
    QUEUE_PAGE_SIZE,
    (row) => row.id,
    (row): QueueRow => {
      const tally = tallies.get(row.id);
      const excerpt = excerpts.get(row.id);
      return {
        id: row.id,
        kind: row.targetKind,
        kindLabel: ITEM_KIND_LABELS[row.targetKind],
        campusId: row.campusId,
        campusName: ctx.campuses.get(row.campusId)?.name ?? row.campusId,
        excerpt: excerpt?.text ?? "",
        studentName: excerpt?.studentName ?? null,
        reasons: tally?.reasons ?? [],
        autoReason: row.autoReason,
        reporters: tally?.reporters ?? 0,
        weight: tally?.weight ?? 0,
        openedAt: row.openedAt.toISOString(),
        decidedAt: row.decidedAt?.toISOString() ?? null,
        decision: row.decision,
        overdue: isOverdue(row, now),
        hidden: row.hidden,
        toAdmins: row.toAdmins,
      };
    },
  );
  const campuses = ctx.campuses
    .all()
    .filter((campus) => !campus.generic && (staff.siteAdmin || staff.moderatedCampusIds.includes(campus.id)))
    .map((campus) => ({ id: campus.id, name: campus.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { ...page, filters, siteAdmin: staff.siteAdmin, campuses, now: now.toISOString() };
}

/**
 * The reports behind each item: reasons with counts, distinct reporters and their weight. An
 * open item counts its undecided reports (decision 0541's weight); a decided one, all of them.
 */
async function reportTallies(ctx: AppContext, items: { id: string; state: string }[]) {
  const tallies = new Map<string, { reasons: ReasonCount[]; reporters: number; weight: number }>();
  if (items.length === 0) return tallies;
  const decided = items.filter((item) => item.state === "decided").map((item) => item.id);
  const counted = and(
    inArray(
      reports.itemId,
      items.map((item) => item.id),
    ),
    decided.length > 0
      ? sql`(${reports.outcome} is null or ${inArray(reports.itemId, decided)})`
      : sql`${reports.outcome} is null`,
  );
  const [byReason, totals] = await Promise.all([
    ctx.db
      .select({ itemId: reports.itemId, reason: reports.reason, count: sql<number>`count(*)::int` })
      .from(reports)
      .where(counted)
      .groupBy(reports.itemId, reports.reason),
    ctx.db
      .select({
        itemId: reports.itemId,
        reporters: sql<number>`count(distinct ${reports.reporterId})::int`,
        weight: sql<number>`coalesce(sum(${reports.weight}), 0)::float8`,
      })
      .from(reports)
      .where(counted)
      .groupBy(reports.itemId),
  ]);
  for (const row of totals) {
    tallies.set(row.itemId, { reasons: [], reporters: row.reporters, weight: Number(row.weight) });
  }
  for (const row of byReason) {
    tallies.get(row.itemId)?.reasons.push({
      reason: row.reason,
      label: REPORT_REASON_LABELS[row.reason],
      count: row.count,
    });
  }
  for (const tally of tallies.values()) {
    tally.reasons.sort(
      (a, b) => b.count - a.count || REPORT_REASONS.indexOf(a.reason) - REPORT_REASONS.indexOf(b.reason),
    );
  }
  return tallies;
}
