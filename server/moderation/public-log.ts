import { eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { moderationLog, user } from "../db/schema";
import { cursorTime, decodeCursor } from "../lists/cursor";
import { keysetPage, type Page, toPage } from "../lists/pages";
import { assertCampusReadable } from "../posts/access";
import { getStaffMember, servesCampus } from "../staff/roles";
import {
  LOG_ACTOR_WORDS,
  LOG_TARGET_WORDS,
  logActionWords,
  PUBLIC_LOG_ACTIONS,
  REPORT_REASON_LABELS,
} from "./rules.shared";

/** What the log reads: the database and the campuses (a private one's gate), nothing of HTTP. */
export type ModerationLogContext = Pick<AppContext, "db" | "campuses">;

/** Decision 0549: entries on a page of /modlog. */
export const MODLOG_PAGE_SIZE = 25;
/** A page and the one row more that says another page exists. */
const MODERATION_LOG_FETCH = MODLOG_PAGE_SIZE + 1;

/** One entry of a campus's log as /modlog shows it. */
export interface LogEntry {
  id: string;
  createdAt: Date;
  /** The action in words ('Removed', 'Suspended for 3 days', 'Hidden pending review'). */
  action: string;
  /** The reason category ('Spam'); null for an action without one (a lift, a role change). */
  reasonLabel: string | null;
  /** What kind of thing it was done to ('a listing', 'a comment', 'a member', 'a message'). */
  targetWords: string;
  publicReason: string | null;
  /** 'Campus moderators', 'Site admins' or 'Automatic'; for staff, the moderator's name. */
  actor: string;
  /** Staff only: the moderator's private note. */
  privateNote: string | null;
}

export interface ModerationLogPage extends Page<LogEntry> {
  /** The viewer serves this campus: names and notes are shown, and the private rows. */
  staffView: boolean;
}

const KEYSET = { time: moderationLog.createdAt, id: moderationLog.id, idKind: "uuid" } as const;

function reasonLabel(code: string | null): string | null {
  if (!code) return null;
  return (REPORT_REASON_LABELS as Record<string, string>)[code] ?? null;
}

function daysOf(details: Record<string, unknown>): number | null {
  return typeof details.days === "number" ? details.days : null;
}

function publicActor(source: string, role: string | null): string {
  if (source !== "staff" || !role) return LOG_ACTOR_WORDS.automatic;
  return role === "site_admin" ? LOG_ACTOR_WORDS.site_admin : LOG_ACTOR_WORDS.campus_moderator;
}

/**
 * Decision 0549: /modlog, a campus's moderation log newest first, in keyset pages. Everyone reads
 * the public entries: when, what was done in words, the reason category, the kind of thing and
 * the public reason, by 'Campus moderators', 'Site admins' or 'Automatic'. The public query never
 * selects a name, a note, a reporter or any content, and leaves out notes and role changes. Staff of
 * the campus (servesCampus) read every entry with the moderator's name and private note. A visitor
 * of a private campus gets its gate (decision 0135), as on the feed.
 */
export async function listModerationLog(
  ctx: ModerationLogContext,
  viewer: Pick<Viewer, "id"> | null,
  campusId: string,
  input: { cursor?: string | null } = {},
): Promise<ModerationLogPage> {
  const campus = ctx.campuses.get(campusId);
  if (!campus) throw new Error(`unknown campus ${JSON.stringify(campusId)}`);
  assertCampusReadable(viewer as Viewer | null, campus);
  const key = input.cursor ? decodeCursor(input.cursor, "uuid") : null;
  const staff = viewer ? await getStaffMember(ctx.db, viewer.id) : null;
  const staffView = staff !== null && servesCampus(staff, campusId);
  const page = { key, limit: MODERATION_LOG_FETCH };
  const inCampus: SQL = eq(moderationLog.campusId, campusId);

  // The public query never selects a name or a note: the columns both views read, and the staff's two more.
  const columns = {
    id: moderationLog.id,
    createdAt: moderationLog.createdAt,
    cursorTime: cursorTime(moderationLog.createdAt),
    source: moderationLog.source,
    actorRole: moderationLog.actorRole,
    action: moderationLog.action,
    targetKind: moderationLog.targetKind,
    reasonCode: moderationLog.reasonCode,
    publicReason: moderationLog.publicReason,
    details: moderationLog.details,
  };
  if (!staffView) {
    const rows = await keysetPage(ctx.db.select(columns).from(moderationLog).$dynamic(), KEYSET, {
      ...page,
      where: [inCampus, inArray(moderationLog.action, [...PUBLIC_LOG_ACTIONS])],
    });
    return {
      staffView,
      ...toPage(
        rows,
        MODLOG_PAGE_SIZE,
        (row) => row.id,
        (row) => toLogEntry(row, publicActor(row.source, row.actorRole), null),
      ),
    };
  }

  const rows = await keysetPage(
    ctx.db
      .select({
        ...columns,
        actorName: sql<string | null>`${user.firstName} || ' ' || ${user.lastName}`,
        privateNote: moderationLog.privateNote,
      })
      .from(moderationLog)
      .leftJoin(user, eq(user.id, moderationLog.actorId))
      .$dynamic(),
    KEYSET,
    { ...page, where: [inCampus] },
  );
  return {
    staffView,
    ...toPage(
      rows,
      MODLOG_PAGE_SIZE,
      (row) => row.id,
      (row) => toLogEntry(row, row.actorName ?? publicActor(row.source, row.actorRole), row.privateNote),
    ),
  };
}

type LogRow = Pick<
  typeof moderationLog.$inferSelect,
  "id" | "createdAt" | "action" | "targetKind" | "reasonCode" | "publicReason" | "details"
>;

function toLogEntry(row: LogRow, actor: string, privateNote: string | null): LogEntry {
  return {
    id: row.id,
    createdAt: row.createdAt,
    action: logActionWords(row.action, daysOf(row.details)),
    reasonLabel: reasonLabel(row.reasonCode),
    targetWords: LOG_TARGET_WORDS[row.targetKind] ?? LOG_TARGET_WORDS.user ?? "",
    publicReason: row.publicReason,
    actor,
    privateNote,
  };
}
