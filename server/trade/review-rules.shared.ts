import { z } from "zod";

/**
 * Reviews and reputation (decision 0615, docs/product/reviews-and-reputation.md): the limits,
 * the tags by the reviewed person's role, every message a review action shows, and the
 * reputation line's words. Shared with the browser (no server imports), so the form mirrors
 * the server's rules.
 */

/** The days after a deal's completion in which its two people may review each other. */
export const REVIEW_WINDOW_DAYS = 14;
export const REVIEW_WINDOW_MS = REVIEW_WINDOW_DAYS * 24 * 60 * 60 * 1000;
export const REVIEW_TEXT_MAX = 500;
export const REVIEW_TAGS_MAX = 3;
/** The Reviews tab's page (decision 0618): 10, as the profile's other tabs. */
export const REVIEWS_PAGE_SIZE = 10;
/** Decision 0616: a star average is shown from this many counted reviews up. */
export const RATING_MIN_REVIEWS = 3;
/** Decision 0616: a repeat pair counts once in this many days. */
export const REPEAT_PAIR_DAYS = 90;

export type ReviewRole = "seller" | "buyer";

/** The tags a review may carry, by the role of the person reviewed, in the form's order (decision 0600). */
export const REVIEW_TAGS = {
  seller: ["as_described", "friendly", "on_time", "communication"],
  buyer: ["on_time", "friendly", "communication", "paid_as_agreed"],
} as const satisfies Record<ReviewRole, readonly string[]>;

export type ReviewTag = (typeof REVIEW_TAGS)[ReviewRole][number];

export const REVIEW_TAG_LABELS: Readonly<Record<ReviewTag, string>> = {
  as_described: "Item as described",
  friendly: "Friendly",
  on_time: "On time",
  communication: "Good communication",
  paid_as_agreed: "Paid as agreed",
};

export const REVIEW_MESSAGES = {
  /** Not one of the deal's two people, or no such deal: one answer (404). */
  notFound: "This trade is no longer here.",
  reviewNotFound: "This review is no longer here.",
  notCompleted: "You can review this trade once it's completed.",
  alreadyReviewed: "You've already reviewed this trade.",
  windowClosed: `The ${REVIEW_WINDOW_DAYS} days to review this trade have passed.`,
  blocked: "You can't review this person.",
  chooseStars: "Choose 1 to 5 stars.",
  tooManyTags: `Choose up to ${REVIEW_TAGS_MAX} tags.`,
  unknownTag: "Choose tags from the list.",
  textTooLong: `Keep your review to ${REVIEW_TEXT_MAX} characters or fewer.`,
  noteTooLong: `Keep your note to ${REVIEW_TEXT_MAX} characters or fewer.`,
  replyEmpty: "Write your reply.",
  replyTooLong: `Keep your reply to ${REVIEW_TEXT_MAX} characters or fewer.`,
  alreadyReplied: "You've already replied to this review.",
  notPublished: "You can reply once the review is published.",
  /** What the other side sees of a review of them until it is published (decision 0615). */
  hiddenUntilYours: "You've been reviewed — write yours to see it",
  reviewSent: "Review sent",
  replySent: "Reply posted",
  privateNotesHeading: "Things to improve",
  somethingWentWrong: "Something went wrong. Try again.",
} as const;

const text = (message: string) => z.string().trim().max(REVIEW_TEXT_MAX, { error: message });

/** The review form (decision 0615): the tags are checked against the subject's role by the domain. */
export const writeReviewSchema = z.object({
  dealId: z.string().min(1).max(100),
  stars: z.coerce
    .number({ error: REVIEW_MESSAGES.chooseStars })
    .int({ error: REVIEW_MESSAGES.chooseStars })
    .min(1, { error: REVIEW_MESSAGES.chooseStars })
    .max(5, { error: REVIEW_MESSAGES.chooseStars }),
  tags: z.array(z.string().max(40)).max(REVIEW_TAGS_MAX, { error: REVIEW_MESSAGES.tooManyTags }).default([]),
  publicText: text(REVIEW_MESSAGES.textTooLong).default(""),
  privateNote: text(REVIEW_MESSAGES.noteTooLong).default(""),
});
export type WriteReviewInput = z.input<typeof writeReviewSchema>;

export const replyToReviewSchema = z.object({
  reviewId: z.string().min(1).max(100),
  reply: z
    .string()
    .trim()
    .min(1, { error: REVIEW_MESSAGES.replyEmpty })
    .max(REVIEW_TEXT_MAX, { error: REVIEW_MESSAGES.replyTooLong }),
});
export type ReplyToReviewInput = z.input<typeof replyToReviewSchema>;

/** A member's reputation as the line shows it (decision 0616). */
export interface ReputationSummary {
  reviewCount: number;
  /** The counted reviews' average, null below RATING_MIN_REVIEWS. */
  rating: number | null;
  tradesCompleted: number;
  /** The median first reply of the last 90 days, in seconds; null without any. */
  replySeconds: number | null;
  /** ISO time the account was made. */
  memberSince: string;
}

/** '★ 4.8 · 23 reviews' from three counted reviews up, 'New seller' below (decision 0616): never a default. */
export function ratingText(summary: Pick<ReputationSummary, "reviewCount" | "rating">): string {
  if (summary.rating === null || summary.reviewCount < RATING_MIN_REVIEWS) return "New seller";
  return `★ ${summary.rating.toFixed(1)} · ${summary.reviewCount} reviews`;
}

export function tradesText(count: number): string {
  return `${count} ${count === 1 ? "trade" : "trades"} completed`;
}

/** Decision 0616: the reply speed in three steps; slower than a day says nothing. */
export function replySpeedText(seconds: number | null): string | null {
  if (seconds === null) return null;
  if (seconds <= 60 * 60) return "Usually replies within an hour";
  if (seconds <= 6 * 60 * 60) return "Usually replies within a few hours";
  if (seconds <= 24 * 60 * 60) return "Usually replies within a day";
  return null;
}

export function memberSinceText(iso: string): string {
  const date = new Date(iso);
  return `Member since ${date.toLocaleDateString("en-US", { month: "short", year: "numeric", timeZone: "UTC" })}`;
}
