import { formatUtcDateTime } from "../dates.shared";
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
  review: "Review reported. Thanks for letting us know.",
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
  campus: "the campus",
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
    case "mute_reporter":
      return "Muted a student's reports";
    case "unmute_reporter":
      return "Unmuted a student's reports";
    case "set_hide_threshold":
      return "Set the weight of reports that hides a post";
    // Decisions 0561, 0562, 0560: the operator console's private rows.
    case "verify_email":
      return "Marked the e-mail address verified";
    case "sign_out_everywhere":
      return "Signed them out everywhere";
    case "resend_code":
      return "Resent the e-mail code";
    case "set_domains":
      return "Changed the school e-mail domains";
    case "refund":
      return "Refunded an ad";
    // Decision 0663: the trust level's lock.
    case "lock_trust_level":
      return "Locked the trust level";
    case "unlock_trust_level":
      return "Unlocked the trust level";
    // Decision 0654: the safety rules.
    case "add_safety_rule":
      return "Added a safety rule";
    case "switch_safety_rule":
      return "Switched a safety rule on or off";
    // Decision 0610: the campus's meetup spots.
    case "add_meetup_spot":
      return "Added a meetup spot";
    case "edit_meetup_spot":
      return "Edited a meetup spot";
    case "archive_meetup_spot":
      return "Removed a meetup spot";
    case "move_meetup_spot":
      return "Reordered the meetup spots";
    default:
      return action;
  }
}

/** Decision 0548: whether `until` is a suspension 'until a moderator lifts it' (a ban's too). */
export function isIndefinite(until: Date): boolean {
  return until.getTime() >= INDEFINITELY.getTime();
}
// --- STAFFSIDE: the queue, the item page and the staff's actions (decisions 0541, 0543, 0544) ---

/** Decision 0541: what the queue calls each kind of item. */
export const ITEM_KIND_LABELS = {
  post: "Listing",
  comment: "Comment",
  message: "Message",
  user: "Member",
  appeal: "Appeal",
  review: "Review",
} as const;

/** Decision 0541: queue rows per page. */
export const QUEUE_PAGE_SIZE = 25;

/** Decision 0543: the decisions on a reported item, as the form offers them. */
export const ITEM_DECISIONS = ["dismiss", "remove", "warn", "suspend", "ban"] as const;
export type ItemDecision = (typeof ITEM_DECISIONS)[number];

export const ITEM_DECISION_LABELS: Readonly<Record<ItemDecision, string>> = {
  dismiss: "Dismiss",
  remove: "Remove",
  warn: "Warn",
  suspend: "Suspend",
  ban: "Ban",
};

/** Decision 0543: the suspension lengths as the form offers them ('' is 'until lifted'). */
export const SUSPENSION_LABELS: readonly { value: string; label: string }[] = [
  { value: "1", label: "1 day" },
  { value: "3", label: "3 days" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "lifted", label: "Until lifted" },
];

/** Decision 0543: where every notice to a student about moderation leads. */
export const STANDING_PATH = "/settings/account/standing";

export const STAFF_DECISION_MESSAGES = {
  queueEmpty: "Nothing waiting. Reports from students on your campus land here.",
  queueEmptyFiltered: "Nothing matches these filters.",
  reasonRequired: "Choose a reason category.",
  publicReasonRequired: "Write the reason the student will read.",
  publicReasonTooLong: `Keep the reason to ${DECISION_LIMITS.publicReasonMax} characters.`,
  privateNoteTooLong: `Keep the private note to ${DECISION_LIMITS.privateNoteMax} characters.`,
  noteRequired: "Write the note.",
  noteTooLong: `Keep the note to ${DECISION_LIMITS.noteMax} characters.`,
  decisionRequired: "Choose what to do.",
  daysRequired: "Choose how long.",
  notForThisItem: "That action does not apply to this item.",
  itemChanged: "New reports came in while you were reading. Look again, then decide.",
  notRemoved: "This content is not removed.",
  notSuspended: "This student is not suspended.",
  ownDecision: "You made the decision this appeal is about: another moderator decides it.",
  appealDecisionRequired: "Choose Approve or Reject.",
  decided: {
    dismiss: "Dismissed. The item is shown again.",
    remove: "Removed, and the student was told why.",
    warn: "Warned, and the student was told why.",
    suspend: "Suspended, and the student was told why and until when.",
    ban: "Banned, and the student was told why.",
    restore: "Restored.",
    lift: "Suspension lifted.",
    note: "Note sent.",
    approve_appeal: "Appeal approved: the strike is overruled.",
    reject_appeal: "Appeal rejected, and the student was told why.",
    mute_reporter: "Their reports count for nothing now.",
    unmute_reporter: "Their reports count again.",
  },
  somethingWentWrong: "Something went wrong. Try again.",
} as const;

/**
 * Decision 0543: how long a suspension lasts as a student reads it ('until March 5, 2026 at 3:00 PM UTC'); a
 * suspension 'until lifted' and a ban read 'until a moderator lifts it' instead.
 */
export function suspensionPeriod(until: Date): string {
  if (until.getTime() >= INDEFINITELY.getTime()) return "until a moderator lifts it";
  return `until ${formatUtcDateTime(until)}`;
}

/** The report reasons in the dialog's order, for the browser (the schema's list stays on the server). */
export const REASON_CODES = Object.keys(REPORT_REASON_LABELS) as [ReportReason, ...ReportReason[]];
// Reports (decisions 0540, 0542): filing a report, its refusals, the automatic hide.

/** Decision 0540: the report dialog's words, and every refusal of a report. */
export const REPORT_MESSAGES = {
  dialogTitle: {
    user: "Report user",
    post: "Report post",
    comment: "Report comment",
    message: "Report message",
    review: "Report review",
  } satisfies Record<ReportTargetKind, string>,
  dialogDescription: "Moderators review every report. The person you report won't know it was you.",
  reasonLegend: "Why are you reporting this?",
  commentLabel: "Anything else moderators should know? (optional)",
  /** The menus' item that opens the dialog. */
  menuItem: "Report",
  submit: "Submit",
  cancel: "Cancel",
  chooseReason: "Choose a reason.",
  commentTooLong: `Keep your comment to ${REPORT_LIMITS.commentMax.toLocaleString("en-US")} characters or fewer.`,
  /** A target that is not there, or not on the reporter's campus, or a chat they are not in: one answer (404). */
  notFound: "This is no longer here.",
  cannotReportOwn: {
    user: "You can't report yourself.",
    post: "You can't report your own post.",
    comment: "You can't report your own comment.",
    message: "You can't report your own message.",
    review: "You can't report your own review.",
  } satisfies Record<ReportTargetKind, string>,
  /** 10 reports in a rolling 24 hours; `wait` as the posting limit says it ('3 hours'). */
  dailyLimit: (limit: number, wait: string) =>
    `You've sent ${limit} reports in the last 24 hours, the most allowed. You can report again in ${wait}.`,
} as const;

/** Decision 0542: the public reason of the automatic hide's log row (the reporters are never named). */
export const AUTO_HIDE_PUBLIC_REASON =
  "Hidden after several students reported it, until moderators review it.";
// LISTS (decisions 0546, 0547): hidden content in lists, and the suspension gate.

/** Decision 0547: the words of the link to the standing page (server/moderation/standing.shared.ts), beside the refusal's message. */
export const STANDING_LINK_LABEL = "See your standing";
