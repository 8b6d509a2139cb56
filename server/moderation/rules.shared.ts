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

// ---------------------------------------------------------------------------
// STUDENT: the standing page, appeals (decisions 0545, 0548) and the public log (decision 0549).

/** Decision 0545: what filing an appeal says. */
export const APPEAL_MESSAGES = {
  tooShort: `Write at least ${APPEAL_RULES.minLength} characters.`,
  tooLong: `Use at most ${APPEAL_RULES.maxLength.toLocaleString("en-US")} characters.`,
  strikeNotFound: "This strike doesn't exist.",
  windowClosed: `The ${APPEAL_RULES.windowDays} days to appeal this strike have passed.`,
  alreadyAppealed: "You have already appealed this strike.",
  overruled: "This strike was overruled: there is nothing to appeal.",
  filed: "Appeal sent. A moderator will review it.",
  somethingWentWrong: "Something went wrong. Try again.",
} as const;

/** Decision 0548: what a strike's action is called on the standing page. */
export const STRIKE_ACTION_LABELS = {
  remove: "Content removed",
  warn: "Warning",
  suspend: "Suspension",
  ban: "Ban",
} as const;

/** Decision 0548: an appeal's status on the standing page. */
export const APPEAL_STATUS_LABELS = {
  pending: "Appeal pending",
  approved: "Appeal approved",
  rejected: "Appeal rejected",
} as const;

/** Decision 0549: what kind of thing an action concerned, on the public log. */
export const LOG_TARGET_WORDS: Readonly<Record<string, string>> = {
  post: "a listing",
  comment: "a comment",
  user: "a member",
  message: "a message",
};

/** Decision 0549: who acted, on the public log (never a name). */
export const LOG_ACTOR_WORDS = {
  site_admin: MODERATION_MESSAGES.publicActorAdmins,
  campus_moderator: MODERATION_MESSAGES.publicActorModerators,
  automatic: "Automatic",
} as const;

/** Decision 0549: the actions the public log shows; role changes and notes stay private to staff. */
export const PUBLIC_LOG_ACTIONS = [
  "remove",
  "warn",
  "suspend",
  "ban",
  "dismiss",
  "restore",
  "lift",
  "hide",
  "approve_appeal",
  "reject_appeal",
] as const;

/**
 * Decision 0549: an action of the log in words. A suspension names its length (`details.days`; none
 * is 'until lifted'). Staff also see the private rows (notes, role changes).
 */
export function logActionWords(action: string, days: number | null): string {
  switch (action) {
    case "remove":
      return "Removed";
    case "warn":
      return "Warned";
    case "suspend":
      return days === null
        ? "Suspended until lifted"
        : `Suspended for ${days} ${days === 1 ? "day" : "days"}`;
    case "ban":
      return "Banned";
    case "dismiss":
      return "Dismissed reports";
    case "restore":
      return "Restored";
    case "lift":
      return "Lifted a suspension";
    case "hide":
      return "Hidden pending review";
    case "approve_appeal":
      return "Approved an appeal";
    case "reject_appeal":
      return "Rejected an appeal";
    case "note":
      return "Sent a note";
    case "grant_role":
      return "Appointed a moderator";
    case "revoke_role":
      return "Removed a moderator";
    default:
      return action;
  }
}

/** Decision 0548: whether `until` is a suspension 'until a moderator lifts it' (a ban's too). */
export function isIndefinite(until: Date): boolean {
  return until.getTime() >= INDEFINITELY.getTime();
}
