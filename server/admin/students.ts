import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Viewer } from "../accounts/viewer";
import {
  ads,
  campuses,
  chatMembers,
  moderationLog,
  payments,
  posts,
  reports,
  session,
  strikes,
  user,
} from "../db/schema";
import { requireSiteAdmin, type StaffContext } from "../staff/roles";
import { parseInput } from "../validation";
import { adminNotFound, invalidAdminInput } from "./errors.shared";
import { SEARCH_MAX, studentIdSchema, studentSearchSchema } from "./schemas.shared";

/** Decision 0561: at most this many accounts answer one search (an exact value matches few). */
export const SEARCH_RESULTS_MAX = 10;

export interface StudentMatch {
  id: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  schoolEmail: string | null;
  campusId: string;
  verified: boolean;
  banned: boolean;
  suspendedUntil: Date | null;
  deletedAt: Date | null;
}

const matchColumns = {
  id: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  username: user.username,
  email: user.email,
  schoolEmail: user.schoolEmail,
  campusId: user.campusId,
  verified: user.verified,
  banned: user.banned,
  suspendedUntil: user.suspendedUntil,
  deletedAt: user.deletedAt,
};

/**
 * Decision 0561: /admin/students finds an account by its exact e-mail, school e-mail, username
 * (with or without '@') or id: four equalities, each served by its unique index, so a lookup
 * costs the same with a hundred accounts or a million. Nothing partial: a console is for finding
 * one person, and a prefix search over e-mail addresses would list strangers.
 */
export async function searchStudents(
  ctx: StaffContext,
  viewer: Pick<Viewer, "id"> | null,
  input: { q?: unknown },
): Promise<StudentMatch[]> {
  await requireSiteAdmin(ctx, viewer);
  const { q } = parseInput(studentSearchSchema, input, invalidAdminInput);
  const lower = q.toLowerCase();
  const username = lower.replace(/^@/, "");
  return ctx.db
    .select(matchColumns)
    .from(user)
    .where(
      or(
        eq(user.email, lower),
        eq(user.schoolEmail, lower),
        eq(user.username, username),
        q.length <= 64 ? eq(user.id, q) : undefined,
      ),
    )
    .orderBy(user.createdAt)
    .limit(SEARCH_RESULTS_MAX);
}

/**
 * Decision 0561: /admin/students?q=…: no search yet, the matches, or what to fix in the search
 * (an empty or overlong one), as values the page shows beside the box.
 */
export async function getStudentSearchPage(
  ctx: StaffContext,
  viewer: Pick<Viewer, "id"> | null,
  q: string | null,
): Promise<{ q: string; matches: StudentMatch[] | null; message: string | null }> {
  await requireSiteAdmin(ctx, viewer);
  if (q === null) return { q: "", matches: null, message: null };
  const parsed = studentSearchSchema.safeParse({ q });
  if (!parsed.success) {
    return { q: q.slice(0, SEARCH_MAX), matches: null, message: parsed.error.issues[0]?.message ?? null };
  }
  return {
    q: parsed.data.q,
    matches: await searchStudents(ctx, viewer, { q: parsed.data.q }),
    message: null,
  };
}

/** How many of each thing rows hold, for the card. */
async function countsOf(ctx: StaffContext, studentId: string, now: Date) {
  const count = sql<number>`count(*)::int`;
  const [listings, reportsMade, reportsReceived, conversations, sessions] = await Promise.all([
    ctx.db
      .select({ n: count })
      .from(posts)
      .where(and(eq(posts.authorId, studentId), isNull(posts.parentId), eq(posts.type, "post"))),
    ctx.db.select({ n: count }).from(reports).where(eq(reports.reporterId, studentId)),
    ctx.db.select({ n: count }).from(reports).where(eq(reports.reportedUserId, studentId)),
    // Decision 0561: how many conversations, never who with nor what was said.
    ctx.db.select({ n: count }).from(chatMembers).where(eq(chatMembers.userId, studentId)),
    ctx.db
      .select({ n: count })
      .from(session)
      .where(and(eq(session.userId, studentId), gt(session.expiresAt, now))),
  ]);
  return {
    listings: listings[0]?.n ?? 0,
    reportsMade: reportsMade[0]?.n ?? 0,
    reportsReceived: reportsReceived[0]?.n ?? 0,
    conversations: conversations[0]?.n ?? 0,
    activeSessions: sessions[0]?.n ?? 0,
  };
}

/** Rows of each list the card shows: the newest, never a whole history. */
export const CARD_LIST_MAX = 10;

/**
 * Decision 0561: a student's card for a site admin: who they are, their verification, standing
 * (suspension, ban, strikes), reports made and received, listings, conversations (a count only),
 * ads and payments, active sessions, and the moderation log's rows about them, with the staff's
 * names. A missing or malformed id is the 404. Trust levels do not exist yet and are left out
 * (decision 0561).
 */
export async function getStudentCard(ctx: StaffContext, viewer: Pick<Viewer, "id"> | null, rawId: unknown) {
  await requireSiteAdmin(ctx, viewer);
  const parsed = studentIdSchema.safeParse(rawId);
  if (!parsed.success) throw adminNotFound();
  const studentId = parsed.data;
  const now = ctx.clock.now();
  const [student] = await ctx.db
    .select({
      ...matchColumns,
      schoolVerified: user.schoolVerified,
      campusName: campuses.name,
      createdAt: user.createdAt,
    })
    .from(user)
    .innerJoin(campuses, eq(campuses.id, user.campusId))
    .where(eq(user.id, studentId))
    .limit(1);
  if (!student) throw adminNotFound();
  const actor = alias(user, "actor");
  const [counts, strikeRows, adRows, paymentRows, sessionRows, listingRows, logRows] = await Promise.all([
    countsOf(ctx, studentId, now),
    ctx.db
      .select({
        id: strikes.id,
        action: strikes.action,
        reasonCode: strikes.reasonCode,
        publicReason: strikes.publicReason,
        suspendedUntil: strikes.suspendedUntil,
        createdAt: strikes.createdAt,
        overruledAt: strikes.overruledAt,
      })
      .from(strikes)
      .where(eq(strikes.userId, studentId))
      .orderBy(desc(strikes.createdAt))
      .limit(CARD_LIST_MAX),
    ctx.db
      .select({
        id: ads.id,
        title: ads.title,
        status: ads.status,
        days: ads.days,
        amountBudgeted: ads.amountBudgeted,
        amountRefunded: ads.amountRefunded,
        createdAt: ads.createdAt,
      })
      .from(ads)
      .where(eq(ads.userId, studentId))
      .orderBy(desc(ads.createdAt), desc(ads.id))
      .limit(CARD_LIST_MAX),
    ctx.db
      .select({
        id: payments.id,
        kind: payments.kind,
        status: payments.status,
        amount: payments.amount,
        description: payments.description,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .where(eq(payments.userId, studentId))
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(CARD_LIST_MAX),
    ctx.db
      .select({
        createdAt: session.createdAt,
        updatedAt: session.updatedAt,
        ipAddress: session.ipAddress,
        userAgent: sql<string | null>`left(${session.userAgent}, 120)`,
      })
      .from(session)
      .where(and(eq(session.userId, studentId), gt(session.expiresAt, now)))
      .orderBy(desc(session.updatedAt))
      .limit(CARD_LIST_MAX),
    ctx.db
      .select({
        id: posts.id,
        excerpt: sql<string>`left(${posts.textPlain}, 80)`,
        listingStatus: posts.listingStatus,
        moderationState: posts.moderationState,
        createdAt: posts.createdAt,
      })
      .from(posts)
      .where(and(eq(posts.authorId, studentId), isNull(posts.parentId), eq(posts.type, "post")))
      .orderBy(desc(posts.lastModified), desc(posts.id))
      .limit(5),
    ctx.db
      .select({
        id: moderationLog.id,
        action: moderationLog.action,
        details: moderationLog.details,
        publicReason: moderationLog.publicReason,
        privateNote: moderationLog.privateNote,
        source: moderationLog.source,
        actorFirstName: actor.firstName,
        actorLastName: actor.lastName,
        createdAt: moderationLog.createdAt,
      })
      .from(moderationLog)
      .leftJoin(actor, eq(actor.id, moderationLog.actorId))
      .where(eq(moderationLog.targetUserId, studentId))
      .orderBy(desc(moderationLog.createdAt), desc(moderationLog.id))
      .limit(20),
  ]);
  const suspended = student.suspendedUntil !== null && student.suspendedUntil > now;
  return {
    student: { ...student, suspended },
    counts,
    strikes: strikeRows,
    ads: adRows,
    payments: paymentRows,
    sessions: sessionRows,
    listings: listingRows,
    log: logRows.map((row) => ({
      ...row,
      days: typeof row.details.days === "number" ? row.details.days : null,
      actor:
        row.actorFirstName !== null ? `${row.actorFirstName} ${row.actorLastName ?? ""}`.trim() : row.source,
    })),
  };
}
export type StudentCard = Awaited<ReturnType<typeof getStudentCard>>;
