import type { ReportReason, ReportTargetKind } from "../db/schema/reports";

/**
 * The moderation rules the browser mirrors and the server enforces (docs/product/staff-and-moderation.md;
 * decisions 0540-0545). Words a student or a moderator sees are here, once.
 */

/** Decision 0540: the report dialog's reasons, in order, with their labels. */
export const REPORT_REASON_LABELS: Readonly<Record<ReportReason, string>> = {
  scam: "Scam or fraud",
  prohibited: "Prohibited item",
  harassment: "Harassment or hate",
  spam: "Spam",
  inappropriate: "Inappropriate",
  other: "Something else",
};

export const REPORT_LIMITS = {
  /** The optional comment of a report, in characters. */
  commentMax: 1000,
  /** Reports a student may send in a day (a rolling 24 hours); a 429 beyond, with the time to wait. */
  perDay: 10,
  /** The chat messages before a reported one that its report keeps (decision 0540). */
  snapshotBefore: 10,
} as const;

/** Decision 0542: how reports hide an item before review. */
export const HIDING_RULES = {
  /** The campus's threshold unless it sets its own (campuses.report_hide_threshold). */
  defaultThreshold: 3,
  /** However heavy the reports, fewer distinct reporters than this never hide anything. */
  minReporters: 2,
  /** A reporter's weight with fewer decided reports than this. */
  newReporterWeight: 1,
  /** Decided reports before accuracy counts. */
  accuracyAfter: 3,
  /** Weight of a reporter all of whose reports were dismissed, and of one all of whose were upheld. */
  lowestWeight: 0.5,
  highestWeight: 1.4,
} as const;

/** Decision 0541: an open item older than this is Overdue and shown to site admins too. */
export const OVERDUE_AFTER_HOURS = 72;

/** Decision 0543: the lengths a suspension can have, in days; null is 'until lifted'. */
export const SUSPENSION_DAYS = [1, 3, 7, 30, null] as const;

/** Decision 0543: a suspension 'until lifted' and a ban end at this instant (a date every database stores). */
export const INDEFINITELY = new Date("9999-12-31T00:00:00.000Z");

/** Decision 0545: appeals. */
export const APPEAL_RULES = {
  windowDays: 20,
  minLength: 30,
  maxLength: 2000,
} as const;

/** Decision 0543: a moderator's public reason and private note, in characters. */
export const DECISION_LIMITS = {
  publicReasonMax: 500,
  privateNoteMax: 1000,
  noteMax: 1000,
} as const;

/** The confirmations a report shows, by what was reported (spec 1 §2 keeps the profile's words). */
export const REPORTED_ALERTS: Readonly<Record<ReportTargetKind, string>> = {
  user: "User Reported. Thanks for letting us know.",
  post: "Post reported. Thanks for letting us know.",
  comment: "Comment reported. Thanks for letting us know.",
  message: "Message reported. Thanks for letting us know.",
};

export const MODERATION_MESSAGES = {
  reportUpdated: "Report updated",
  hiddenBanner: "Hidden while moderators review it",
  alreadyHandled: (name: string) => `Already handled by ${name}`,
  suspendedUntil: (date: string) => `Your account is suspended until ${date}`,
  suspendedIndefinitely: "Your account is suspended until a moderator lifts it",
  publicActorModerators: "Campus moderators",
  publicActorAdmins: "Site admins",
} as const;

// LISTS (decisions 0546, 0547): hidden content in lists, and the suspension gate.

/** Decision 0547: the words of the link to the standing page (server/moderation/standing.shared.ts), beside the refusal's message. */
export const STANDING_LINK_LABEL = "See your standing";
