import { and, desc, eq, inArray } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { isUuid } from "../db/ids";
import { appeals, chatMessages, posts, reviews, strikes, user } from "../db/schema";
import { appealDeadline } from "./appeals";
import { isIndefinite, REPORT_REASON_LABELS } from "./rules.shared";

/** What the standing page reads: the database and the clock, nothing of HTTP. */
export type StandingContext = Pick<AppContext, "db" | "clock">;

/** Decision 0548: the longest excerpt of the student's own content the page shows. */
export const EXCERPT_CHARACTERS = 100;

/** The removed items the page lists, newest first (a student with more has bigger problems). */
const REMOVED_ITEMS_SHOWN = 50;

type StrikeAction = (typeof strikes.$inferSelect)["action"];
type StrikeTargetKind = (typeof strikes.$inferSelect)["targetKind"];

export interface StandingStrike {
  id: string;
  action: StrikeAction;
  createdAt: Date;
  reasonLabel: string;
  publicReason: string;
  /** What it concerned, with an excerpt of the student's own words when there are some. */
  target: { kind: StrikeTargetKind; excerpt: string | null };
  overruledAt: Date | null;
  appeal: {
    status: "pending" | "approved" | "rejected";
    decisionReason: string | null;
    createdAt: Date;
  } | null;
  /** Until when the student may still appeal it; null when they may not (appealed, overruled, too late). */
  appealUntil: Date | null;
}

export interface Standing {
  /** The suspension in force now, by the clock; null when there is none (or it has ended). */
  restriction: {
    until: Date;
    /** Until a moderator lifts it (a ban, or a suspension 'until lifted'). */
    indefinite: boolean;
    /** The strike that set it, when one still stands. */
    reasonLabel: string | null;
    publicReason: string | null;
  } | null;
  strikes: StandingStrike[];
  removed: { id: string; kind: "post" | "comment"; excerpt: string; createdAt: Date }[];
}

/** The first words of a text, on one line. */
export function excerptOf(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > EXCERPT_CHARACTERS ? `${line.slice(0, EXCERPT_CHARACTERS - 1).trimEnd()}…` : line;
}

function reasonLabel(code: string): string {
  return (REPORT_REASON_LABELS as Record<string, string>)[code] ?? REPORT_REASON_LABELS.other;
}

/**
 * Decision 0548: /settings/account/standing. The student's strikes, newest first, each with what it
 * concerned, whether it was overruled and its appeal; the suspension in force, compared with the
 * clock at this read (one that has ended shows nothing, no job needed); their posts and comments a
 * moderator removed. Only the viewer's own rows are read.
 */
export async function getStanding(ctx: StandingContext, viewer: Pick<Viewer, "id">): Promise<Standing> {
  const now = ctx.clock.now();
  const [account, strikeRows, removedRows] = await Promise.all([
    ctx.db.select({ suspendedUntil: user.suspendedUntil }).from(user).where(eq(user.id, viewer.id)).limit(1),
    ctx.db
      .select({
        id: strikes.id,
        action: strikes.action,
        createdAt: strikes.createdAt,
        reasonCode: strikes.reasonCode,
        publicReason: strikes.publicReason,
        targetKind: strikes.targetKind,
        targetId: strikes.targetId,
        suspendedUntil: strikes.suspendedUntil,
        overruledAt: strikes.overruledAt,
        appealStatus: appeals.status,
        appealReason: appeals.decisionReason,
        appealedAt: appeals.createdAt,
      })
      .from(strikes)
      .leftJoin(appeals, eq(appeals.strikeId, strikes.id))
      .where(eq(strikes.userId, viewer.id))
      .orderBy(desc(strikes.createdAt), desc(strikes.id)),
    ctx.db
      .select({
        id: posts.id,
        parentId: posts.parentId,
        textPlain: posts.textPlain,
        createdAt: posts.createdAt,
      })
      .from(posts)
      .where(and(eq(posts.authorId, viewer.id), eq(posts.moderationState, "removed")))
      .orderBy(desc(posts.createdAt), desc(posts.id))
      .limit(REMOVED_ITEMS_SHOWN),
  ]);
  const excerpts = await targetExcerpts(ctx, viewer.id, strikeRows);

  const until = account[0]?.suspendedUntil ?? null;
  let restriction: Standing["restriction"] = null;
  if (until && until.getTime() > now.getTime()) {
    // The newest standing strike that suspended the student is the one they are told about.
    const cause = strikeRows.find(
      (row) => !row.overruledAt && row.suspendedUntil && row.suspendedUntil.getTime() > now.getTime(),
    );
    restriction = {
      until,
      indefinite: isIndefinite(until),
      reasonLabel: cause ? reasonLabel(cause.reasonCode) : null,
      publicReason: cause?.publicReason ?? null,
    };
  }

  return {
    restriction,
    strikes: strikeRows.map((row) => {
      const deadline = appealDeadline(row.createdAt);
      const open = !row.overruledAt && !row.appealStatus && now.getTime() <= deadline.getTime();
      return {
        id: row.id,
        action: row.action,
        createdAt: row.createdAt,
        reasonLabel: reasonLabel(row.reasonCode),
        publicReason: row.publicReason,
        target: { kind: row.targetKind, excerpt: excerpts.get(row.targetId) ?? null },
        overruledAt: row.overruledAt,
        appeal:
          row.appealStatus && row.appealedAt
            ? { status: row.appealStatus, decisionReason: row.appealReason, createdAt: row.appealedAt }
            : null,
        appealUntil: open ? deadline : null,
      };
    }),
    removed: removedRows.map((row) => ({
      id: row.id,
      kind: row.parentId ? ("comment" as const) : ("post" as const),
      excerpt: excerptOf(row.textPlain),
      createdAt: row.createdAt,
    })),
  };
}

/** The student's own words in the posts, comments and messages their strikes concern, by id. */
async function targetExcerpts(
  ctx: StandingContext,
  userId: string,
  rows: { targetKind: StrikeTargetKind; targetId: string }[],
): Promise<Map<string, string>> {
  const ids = (kinds: StrikeTargetKind[]) =>
    rows.filter((row) => kinds.includes(row.targetKind) && isUuid(row.targetId)).map((row) => row.targetId);
  const postIds = ids(["post", "comment"]);
  const messageIds = ids(["message"]);
  const reviewIds = ids(["review"]);
  const [postRows, messageRows, reviewRows] = await Promise.all([
    postIds.length === 0
      ? []
      : ctx.db
          .select({ id: posts.id, text: posts.textPlain })
          .from(posts)
          .where(and(inArray(posts.id, postIds), eq(posts.authorId, userId))),
    messageIds.length === 0
      ? []
      : ctx.db
          .select({ id: chatMessages.id, text: chatMessages.text })
          .from(chatMessages)
          .where(and(inArray(chatMessages.id, messageIds), eq(chatMessages.senderId, userId))),
    // Decision 0619: a removed review of the student's, in their public words.
    reviewIds.length === 0
      ? []
      : ctx.db
          .select({ id: reviews.id, text: reviews.publicText })
          .from(reviews)
          .where(and(inArray(reviews.id, reviewIds), eq(reviews.authorId, userId))),
  ]);
  const excerpts = new Map<string, string>();
  for (const row of [...postRows, ...messageRows, ...reviewRows]) {
    const excerpt = excerptOf(row.text);
    if (excerpt) excerpts.set(row.id, excerpt);
  }
  return excerpts;
}
