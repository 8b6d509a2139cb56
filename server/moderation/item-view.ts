import { asc, eq, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import {
  chatMessages,
  postMedia,
  posts,
  type ReportedMessageSnapshot,
  reporterRecords,
  reports,
  reviews,
  user,
} from "../db/schema";
import { requireStaff } from "../staff/roles";
import { appealOfItem, mayDecideAppeal } from "./appeal-decisions";
import { type AuthorRecord, authorRecord } from "./author-record";
import { deciderName } from "./claim";
import { decisionsFor } from "./decisions";
import { ITEM_KIND_LABELS, type ItemDecision, REPORT_REASON_LABELS } from "./rules.shared";
import { isOverdue, requireItemInScope } from "./scope";

export type ItemContent =
  | {
      kind: "post" | "comment";
      id: string;
      text: string;
      category: string | null;
      priceCents: number | null;
      createdAt: string;
      moderationState: "hidden" | "removed" | null;
      /** The post a comment belongs to (its thread), for context. */
      rootId: string | null;
      photos: {
        url: string;
        thumbUrl: string | null;
        kind: "image" | "video";
        width: number | null;
        height: number | null;
      }[];
    }
  | { kind: "message"; reportedId: string; snapshot: ReportedMessageSnapshot | null; removed: boolean }
  | { kind: "user"; name: string; username: string; bio: string | null; img: string | null }
  /** Decision 0619: a review's public words only; its private note is its subject's alone. */
  | {
      kind: "review";
      stars: number;
      subjectRole: "seller" | "buyer";
      text: string;
      reply: string | null;
      removed: boolean;
    }
  | { kind: "gone" };

/** Decision 0541: /mod/items/:id. */
export interface ModerationItemView {
  item: {
    id: string;
    kind: keyof typeof ITEM_KIND_LABELS;
    kindLabel: string;
    campusId: string;
    campusName: string;
    state: "open" | "decided";
    version: number;
    openedAt: string;
    overdue: boolean;
    hidden: boolean;
    toAdmins: boolean;
    decision: string | null;
    decidedAt: string | null;
    decidedBy: string | null;
    /** Decisions 0650, 0653: why the product opened the item itself, in place of reporters' reasons. */
    autoReason: string | null;
  };
  reasonCounts: { reason: string; label: string; count: number }[];
  /** Every report, oldest first, with its reporter: staff only ever see who reported. */
  reports: {
    id: string;
    reasonLabel: string;
    comment: string | null;
    createdAt: string;
    outcome: string | null;
    /** `muted`: staff muted this student's reports (decision 0542). */
    reporter: { id: string; name: string; username: string; muted: boolean };
  }[];
  content: ItemContent;
  author: AuthorRecord | null;
  appeal: {
    id: string;
    text: string;
    createdAt: string;
    status: string;
    mayDecide: boolean;
    strike: AuthorRecord["strikes"][number] & { targetKind: string; targetId: string };
  } | null;
  /** What the page offers: the decisions (on an open item) and the separate actions. */
  actions: { decide: readonly ItemDecision[]; restore: boolean; lift: boolean; note: boolean };
  now: string;
}

/**
 * Decision 0541: one item for its staff: the reports grouped, the content as its author wrote
 * it (hidden or removed included, with its photos; for a chat message only the report's stored
 * snapshot), the author's record, and for an appeal its strike and text. Out of scope: not found.
 */
export async function getModerationItem(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  itemId: string,
): Promise<ModerationItemView> {
  const staff = await requireStaff(ctx, viewer, null);
  const item = await requireItemInScope(ctx.db, staff, itemId);
  const now = ctx.clock.now();
  const [reportRows, decider, appealRow] = await Promise.all([
    ctx.db
      .select({
        id: reports.id,
        reason: reports.reason,
        comment: reports.comment,
        createdAt: reports.createdAt,
        outcome: reports.outcome,
        targetId: reports.targetId,
        snapshot: reports.snapshot,
        reporterId: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        username: user.username,
        muted: sql<boolean>`coalesce(${reporterRecords.muted}, false)`,
      })
      .from(reports)
      .innerJoin(user, eq(user.id, reports.reporterId))
      .leftJoin(reporterRecords, eq(reporterRecords.userId, reports.reporterId))
      .where(eq(reports.itemId, item.id))
      .orderBy(asc(reports.createdAt), asc(reports.id)),
    item.decidedBy
      ? ctx.db
          .select({ firstName: user.firstName, lastName: user.lastName })
          .from(user)
          .where(eq(user.id, item.decidedBy))
          .limit(1)
      : [],
    appealOfItem(ctx.db, item),
  ]);
  const counts = new Map<string, number>();
  const open = item.state === "open";
  for (const row of reportRows) {
    if (open && row.outcome !== null) continue;
    counts.set(row.reason, (counts.get(row.reason) ?? 0) + 1);
  }
  const studentId = appealRow?.strike.userId ?? item.targetUserId;
  const author = studentId ? await authorRecord(ctx, studentId) : null;
  const content = await contentOf(ctx, item.targetKind, item.targetId, reportRows, appealRow?.strike ?? null);
  const contentRemoved =
    content.kind === "post" || content.kind === "comment"
      ? content.moderationState === "removed"
      : content.kind === "message" || content.kind === "review"
        ? content.removed
        : false;
  const [deciderRow] = decider;
  const strikeView = appealRow && author?.strikes.find((strike) => strike.id === appealRow.strike.id);
  return {
    item: {
      id: item.id,
      kind: item.targetKind,
      kindLabel: ITEM_KIND_LABELS[item.targetKind],
      campusId: item.campusId,
      campusName: ctx.campuses.get(item.campusId)?.name ?? item.campusId,
      state: item.state,
      version: item.version,
      openedAt: item.openedAt.toISOString(),
      overdue: isOverdue(item, now),
      hidden: item.hidden,
      toAdmins: item.toAdmins,
      decision: item.decision,
      decidedAt: item.decidedAt?.toISOString() ?? null,
      decidedBy: deciderRow ? deciderName(deciderRow) : null,
      autoReason: item.autoReason,
    },
    reasonCounts: [...counts].map(([reason, count]) => ({
      reason,
      label: REPORT_REASON_LABELS[reason as keyof typeof REPORT_REASON_LABELS],
      count,
    })),
    reports: reportRows.map((row) => ({
      id: row.id,
      reasonLabel: REPORT_REASON_LABELS[row.reason],
      comment: row.comment,
      createdAt: row.createdAt.toISOString(),
      outcome: row.outcome,
      reporter: {
        id: row.reporterId,
        name: `${row.firstName} ${row.lastName}`.trim(),
        username: row.username,
        muted: Boolean(row.muted),
      },
    })),
    content,
    author,
    appeal:
      appealRow && strikeView
        ? {
            id: appealRow.appeal.id,
            text: appealRow.appeal.text,
            createdAt: appealRow.appeal.createdAt.toISOString(),
            status: appealRow.appeal.status,
            mayDecide: mayDecideAppeal(staff, appealRow.strike),
            strike: {
              ...strikeView,
              targetKind: appealRow.strike.targetKind,
              targetId: appealRow.strike.targetId,
            },
          }
        : null,
    actions: {
      decide: open ? decisionsFor(item.targetKind) : [],
      restore: contentRemoved,
      lift: author?.suspendedUntil != null,
      note: author !== null,
    },
    now: now.toISOString(),
  };
}

async function contentOf(
  ctx: AppContext,
  kind: string,
  targetId: string,
  reportRows: { targetId: string; snapshot: ReportedMessageSnapshot | null }[],
  strike: { targetKind: string; targetId: string } | null,
): Promise<ItemContent> {
  // An appeal shows the content of the strike it appeals.
  if (kind === "appeal" && strike)
    return contentOf(ctx, strike.targetKind, strike.targetId, reportRows, null);
  if (kind === "post" || kind === "comment") {
    const [post] = await ctx.db.select().from(posts).where(eq(posts.id, targetId)).limit(1);
    if (!post) return { kind: "gone" };
    const media = await ctx.db
      .select()
      .from(postMedia)
      .where(eq(postMedia.postId, post.id))
      .orderBy(asc(postMedia.imgOrder));
    return {
      kind: post.parentId ? "comment" : "post",
      id: post.id,
      text: post.textPlain,
      category: post.category,
      priceCents: post.priceCents,
      createdAt: post.createdAt.toISOString(),
      moderationState: post.moderationState,
      rootId: post.rootId,
      photos: media.map((file) => ({
        url: ctx.storage.url(file.imgPath),
        thumbUrl: file.thumbPath ? ctx.storage.url(file.thumbPath) : null,
        kind: file.kind,
        width: file.imgWidth,
        height: file.imgHeight,
      })),
    };
  }
  if (kind === "message") {
    const withSnapshot = reportRows.find((row) => row.targetId === targetId && row.snapshot);
    const [message] = await ctx.db
      .select({ state: chatMessages.moderationState })
      .from(chatMessages)
      .where(eq(chatMessages.id, targetId))
      .limit(1);
    return {
      kind: "message",
      reportedId: targetId,
      snapshot: withSnapshot?.snapshot ?? null,
      removed: message?.state === "removed",
    };
  }
  if (kind === "review") {
    const [review] = await ctx.db
      .select({
        stars: reviews.stars,
        subjectRole: reviews.subjectRole,
        text: reviews.publicText,
        reply: reviews.reply,
        state: reviews.moderationState,
      })
      .from(reviews)
      .where(eq(reviews.id, targetId))
      .limit(1);
    if (!review) return { kind: "gone" };
    return {
      kind: "review",
      stars: review.stars,
      subjectRole: review.subjectRole,
      text: review.text,
      reply: review.reply,
      removed: review.state === "removed",
    };
  }
  if (kind === "user") {
    const [person] = await ctx.db.select().from(user).where(eq(user.id, targetId)).limit(1);
    if (!person) return { kind: "gone" };
    return {
      kind: "user",
      name: `${person.firstName} ${person.lastName}`.trim(),
      username: person.username,
      bio: person.bio,
      img: person.img,
    };
  }
  return { kind: "gone" };
}
