import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { posts, reviews, user } from "../db/schema";
import { cursorTime, decodeCursor } from "../lists/cursor";
import { keysetPage, type Page, toPage } from "../lists/pages";
import { requireReadableCampus } from "../posts/access";
import { ReviewError } from "./review-errors";
import { REVIEW_MESSAGES, REVIEWS_PAGE_SIZE, type ReviewRole, type ReviewTag } from "./review-rules.shared";
import { dealOfParticipant, otherSide, reviewWindowEnd } from "./reviews";

/**
 * What pages show of reviews (decision 0615, 0618). A review reaches anyone but its two people
 * only once published and not removed; its private note reaches its subject only — the one
 * place it is selected is `privateNoteFor`, which compares the subject with the viewer.
 */

export interface ReviewView {
  id: string;
  stars: number;
  tags: ReviewTag[];
  publicText: string;
  /** Only for the review's subject ('Things to improve'); null for everyone else. */
  privateNote: string | null;
  subjectRole: ReviewRole;
  author: { id: string; firstName: string; lastName: string; username: string };
  publishedAt: string;
  reply: string | null;
  /** Whether the viewer may reply (the subject, once, published). */
  canReply: boolean;
  /** Whether the viewer may report it (signed in, not its author). */
  canReport: boolean;
}

const author = alias(user, "review_author");

/** The one place a private note is read: the subject's own, otherwise nothing (decision 0615). */
function privateNoteFor(viewerId: string | null) {
  return viewerId
    ? sql<string | null>`case when ${reviews.subjectId} = ${viewerId} then ${reviews.privateNote} end`
    : sql<string | null>`null::text`;
}

const reviewColumns = (viewerId: string | null) => ({
  id: reviews.id,
  stars: reviews.stars,
  tags: reviews.tags,
  publicText: reviews.publicText,
  privateNote: privateNoteFor(viewerId),
  subjectId: reviews.subjectId,
  subjectRole: reviews.subjectRole,
  reply: reviews.reply,
  publishesAt: reviews.publishesAt,
  cursorTime: cursorTime(reviews.publishesAt),
  authorId: author.id,
  authorFirstName: author.firstName,
  authorLastName: author.lastName,
  authorUsername: author.username,
});

type ReviewRow = {
  id: string;
  stars: number;
  tags: string[];
  publicText: string;
  privateNote: string | null;
  subjectId: string;
  subjectRole: ReviewRole;
  reply: string | null;
  publishesAt: Date;
  authorId: string;
  authorFirstName: string;
  authorLastName: string;
  authorUsername: string;
};

function toView(row: ReviewRow, viewerId: string | null): ReviewView {
  return {
    id: row.id,
    stars: row.stars,
    tags: row.tags as ReviewTag[],
    publicText: row.publicText,
    privateNote: viewerId !== null && row.subjectId === viewerId ? row.privateNote : null,
    subjectRole: row.subjectRole,
    author: {
      id: row.authorId,
      firstName: row.authorFirstName,
      lastName: row.authorLastName,
      username: row.authorUsername,
    },
    publishedAt: row.publishesAt.toISOString(),
    reply: row.reply,
    canReply: viewerId !== null && row.subjectId === viewerId && row.reply === null,
    canReport: viewerId !== null && row.authorId !== viewerId,
  };
}

/**
 * Decision 0618: the Reviews tab — the member's published, unremoved reviews by accounts not
 * banned, newest first, 10 a page, keyset on (publishes_at, id) through reviews_subject_idx.
 */
export async function listReviewsOfUser(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { userId: string; campusId: string; cursor: string | null },
): Promise<Page<ReviewView>> {
  // spec 2 §6: a private community's profiles keep their tabs from visitors.
  requireReadableCampus(ctx, viewer, input.campusId);
  const key = input.cursor ? decodeCursor(input.cursor) : null;
  const now = ctx.clock.now();
  const viewerId = viewer?.id ?? null;
  const rows = await keysetPage(
    ctx.db
      .select(reviewColumns(viewerId))
      .from(reviews)
      .innerJoin(author, eq(author.id, reviews.authorId))
      .$dynamic(),
    { time: reviews.publishesAt, id: reviews.id, idKind: "uuid" },
    {
      where: [
        eq(reviews.subjectId, input.userId),
        lte(reviews.publishesAt, now),
        isNull(reviews.moderationState),
        eq(author.banned, false),
        sql`not exists (select 1 from banned_emails b where b.user_id = ${reviews.authorId})`,
      ],
      key,
      limit: REVIEWS_PAGE_SIZE + 1,
    },
  );
  return toPage(
    rows,
    REVIEWS_PAGE_SIZE,
    (row) => row.id,
    (row) => toView(row, viewerId),
  );
}

export interface DealReviewPage {
  dealId: string;
  postTitle: string;
  other: { id: string; firstName: string; lastName: string; username: string };
  /** The role of the person the viewer reviews. */
  otherRole: ReviewRole;
  completed: boolean;
  /** ISO end of the 14 days; null before completion. */
  windowEndsAt: string | null;
  canWrite: boolean;
  /** Why the viewer cannot write, when they cannot (and have not). */
  refusal: string | null;
  mine: ReviewView | null;
  /** Their review of the viewer: published, or only the fact that it exists. */
  theirs: ReviewView | null;
  theirsHidden: boolean;
}

/**
 * The review page of a deal (decision 0618), for its two people only (404 for anyone else): what
 * the viewer wrote (without its private note, which is the subject's), and the other's review
 * of them once published — before that only that it exists.
 */
export async function getDealReviewPage(
  ctx: AppContext,
  viewer: Viewer | null,
  dealId: string,
): Promise<DealReviewPage> {
  if (!viewer || viewer.banned) throw new ReviewError("not-found", REVIEW_MESSAGES.notFound);
  const deal = await dealOfParticipant(ctx.db, viewer.id, dealId, false);
  const { subjectId, role } = otherSide(deal, viewer.id);
  const now = ctx.clock.now();
  const [other, post, rows] = await Promise.all([
    ctx.db
      .select({ id: user.id, firstName: user.firstName, lastName: user.lastName, username: user.username })
      .from(user)
      .where(eq(user.id, subjectId))
      .limit(1),
    ctx.db.select({ title: posts.textPlain }).from(posts).where(eq(posts.id, deal.postId)).limit(1),
    ctx.db
      .select(reviewColumns(viewer.id))
      .from(reviews)
      .innerJoin(author, eq(author.id, reviews.authorId))
      .where(and(eq(reviews.dealId, deal.id), isNull(reviews.moderationState))),
  ]);
  const mineRow = rows.find((row) => row.authorId === viewer.id);
  const theirsRow = rows.find((row) => row.authorId === subjectId);
  const published = theirsRow ? theirsRow.publishesAt.getTime() <= now.getTime() : false;
  const windowEnd = reviewWindowEnd(deal);
  const completed = deal.state === "completed";
  const open = completed && windowEnd !== null && now.getTime() < windowEnd.getTime();
  const refusal = mineRow
    ? null
    : !completed
      ? REVIEW_MESSAGES.notCompleted
      : !open
        ? REVIEW_MESSAGES.windowClosed
        : null;
  const [otherRow] = other;
  if (!otherRow) throw new ReviewError("not-found", REVIEW_MESSAGES.notFound);
  return {
    dealId: deal.id,
    postTitle: (post[0]?.title ?? "").slice(0, 120),
    other: otherRow,
    otherRole: role,
    completed,
    windowEndsAt: windowEnd?.toISOString() ?? null,
    canWrite: !mineRow && open,
    refusal,
    // The author's own review is shown without the private note: that note is its subject's.
    mine: mineRow
      ? { ...toView(mineRow, viewer.id), privateNote: null, canReply: false, canReport: false }
      : null,
    theirs: theirsRow && published ? toView(theirsRow, viewer.id) : null,
    theirsHidden: theirsRow !== undefined && !published,
  };
}
