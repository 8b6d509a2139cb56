import { and, desc, eq, lte } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { isUuid } from "../db/ids";
import { chatMembers, chatMessages, posts, reviews, user } from "../db/schema";
import type { ReportedMessageSnapshot, ReportTargetKind } from "../db/schema/reports";
import { ReportError } from "./errors";
import { REPORT_LIMITS, REPORT_MESSAGES } from "./rules.shared";

/** What a report is about, as its filing needs it (decision 0540). */
export interface ReportTarget {
  kind: ReportTargetKind;
  id: string;
  campusId: string;
  /** Whose it is: the author of a post, comment, message or review, or the profile's owner. */
  ownerId: string;
  /** A chat message's conversation and the message's number in it (for the snapshot). */
  chat?: { chatId: string; seq: number };
}

const notFound = () => new ReportError("not-found", REPORT_MESSAGES.notFound);

/**
 * Decision 0540: the target of a report by `reporterId` of campus `campusId`, or the not-found
 * refusal (404) when it is not there, is gone (removed by a moderator), is on another campus, or is a
 * message of a chat the reporter is not in — one answer for all, so an id tells nothing. One's own
 * content or profile is refused with its own message.
 */
export async function resolveReportTarget(
  db: Queryable,
  reporter: { id: string; campusId: string },
  kind: ReportTargetKind,
  id: string,
  now: Date,
): Promise<ReportTarget> {
  const target = await findTarget(db, reporter, kind, id, now);
  if (!target || target.campusId !== reporter.campusId) throw notFound();
  if (target.ownerId === reporter.id) {
    throw new ReportError("own-content", REPORT_MESSAGES.cannotReportOwn[kind]);
  }
  return target;
}

async function findTarget(
  db: Queryable,
  reporter: { id: string },
  kind: ReportTargetKind,
  id: string,
  now: Date,
): Promise<ReportTarget | null> {
  if (kind === "user") {
    const [row] = await db
      .select({ id: user.id, campusId: user.campusId, deletedAt: user.deletedAt })
      .from(user)
      .where(eq(user.id, id))
      .limit(1);
    // Decision 0571: a deleted account is a tombstone, nobody to report.
    return row && !row.deletedAt ? { kind, id: row.id, campusId: row.campusId, ownerId: row.id } : null;
  }
  if (!isUuid(id)) return null;
  if (kind === "review") {
    // Decision 0619: a review is reportable where it is read — published and not removed.
    const [row] = await db
      .select({
        campusId: reviews.campusId,
        authorId: reviews.authorId,
        publishesAt: reviews.publishesAt,
        removed: reviews.moderationState,
      })
      .from(reviews)
      .where(eq(reviews.id, id))
      .limit(1);
    if (!row || row.removed || row.publishesAt.getTime() > now.getTime()) return null;
    return { kind, id, campusId: row.campusId, ownerId: row.authorId };
  }
  if (kind === "message") {
    // Only a member of the chat may report its message: staff never browse a chat (decision 0540).
    const [row] = await db
      .select({
        campusId: chatMessages.campusId,
        senderId: chatMessages.senderId,
        chatId: chatMessages.chatId,
        seq: chatMessages.seq,
        removed: chatMessages.moderationState,
        senderDeletedAt: user.deletedAt,
      })
      .from(chatMessages)
      .innerJoin(
        chatMembers,
        and(eq(chatMembers.chatId, chatMessages.chatId), eq(chatMembers.userId, reporter.id)),
      )
      .innerJoin(user, eq(user.id, chatMessages.senderId))
      .where(eq(chatMessages.id, id))
      .limit(1);
    // Decision 0571: a deleted account's messages stay for the other person to read, not to report.
    if (!row || row.removed || row.senderDeletedAt) return null;
    return {
      kind,
      id,
      campusId: row.campusId,
      ownerId: row.senderId,
      chat: { chatId: row.chatId, seq: row.seq },
    };
  }
  const [row] = await db
    .select({
      campusId: posts.campusId,
      authorId: posts.authorId,
      parentId: posts.parentId,
      state: posts.moderationState,
    })
    .from(posts)
    .where(eq(posts.id, id))
    .limit(1);
  // A post id sent as a comment (or the reverse) is not that thing; a removed one is gone.
  if (!row || row.state === "removed" || (kind === "comment") !== (row.parentId !== null)) return null;
  return { kind, id, campusId: row.campusId, ownerId: row.authorId };
}

/**
 * Decision 0540: a reported chat message and the 10 before it in its conversation, oldest first,
 * as they are now: the only chat content staff ever see. One range read of (chat_id, seq).
 */
export async function messageSnapshot(
  db: Queryable,
  chat: { chatId: string; seq: number },
): Promise<ReportedMessageSnapshot> {
  const rows = await db
    .select({
      id: chatMessages.id,
      senderId: chatMessages.senderId,
      firstName: user.firstName,
      lastName: user.lastName,
      text: chatMessages.text,
      imgPath: chatMessages.imgPath,
      postId: chatMessages.postId,
      createdAt: chatMessages.createdAt,
    })
    .from(chatMessages)
    .innerJoin(user, eq(user.id, chatMessages.senderId))
    .where(and(eq(chatMessages.chatId, chat.chatId), lte(chatMessages.seq, chat.seq)))
    .orderBy(desc(chatMessages.seq))
    .limit(REPORT_LIMITS.snapshotBefore + 1);
  return {
    chatId: chat.chatId,
    messages: rows.reverse().map((row) => ({
      id: row.id,
      senderId: row.senderId,
      senderName: `${row.firstName} ${row.lastName}`,
      text: row.text,
      hasPhoto: row.imgPath !== null,
      sharedPostId: row.postId,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}
