import { z } from "zod";
import { DomainError, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/**
 * Decisions 0550–0553: what the operator console's dashboard, jobs and mail pages say, and the
 * inputs they read, shared by the pages and the domain (server/admin/).
 */
export const CONSOLE_MESSAGES = {
  noProblems: "No problems. Mail is moving, the jobs run and the configuration is complete.",
  unknownJob: "There is no job with this name.",
  jobRunning: "A run of this job is under way. Its result shows here when it ends.",
  jobsStopped: "The server is stopping: no job can run now.",
  jobsNotRunning: "Jobs don't run in this process, so none can run now.",
  mailNotFound: "This mail doesn't exist.",
  mailNotFailed: "This mail is no longer failed: it was retried or delivered meanwhile.",
  mailExpired:
    "This mail's code or link has expired, so retrying cannot help. Ask the student to request a new one.",
  mailNewerQueued:
    "A newer mail of this kind is already queued for this student; it will say what this one would have.",
  mailRetried: "Mail queued again. It goes out within seconds.",
  historyTooLong: "Enter at most 254 characters.",
  historyEmpty: "Enter an e-mail address or a username.",
  historyUnknown: "No account uses this e-mail address or username.",
  somethingWentWrong: "Something went wrong. Try again.",
} as const;

/** Why a console function refused (docs/architecture.md rule 5). */
export type ConsoleErrorCode =
  | "invalid-input"
  | "unknown-job"
  | "job-running"
  | "jobs-unavailable"
  | "mail-not-found"
  | "mail-not-failed"
  | "mail-expired"
  | "mail-newer-queued";

const CONSOLE_STATUSES: Readonly<Record<string, number>> = {
  "unknown-job": 404,
  "job-running": 409,
  "jobs-unavailable": 503,
  "mail-not-found": 404,
  "mail-not-failed": 409,
  "mail-expired": 409,
  "mail-newer-queued": 409,
};

export class ConsoleError extends DomainError<ConsoleErrorCode> {
  constructor(code: ConsoleErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code, CONSOLE_STATUSES), field });
    this.name = "ConsoleError";
  }
}

export function invalidConsoleInput(issue: InputIssue): ConsoleError {
  return new ConsoleError("invalid-input", issue.message, issue.field);
}

/** Decision 0552: a job's name as the registry spells it (kebab-case). */
export const runJobSchema = z.object({
  job: z
    .string({ error: CONSOLE_MESSAGES.unknownJob })
    .max(60, { error: CONSOLE_MESSAGES.unknownJob })
    .regex(/^[a-z0-9-]+$/, { error: CONSOLE_MESSAGES.unknownJob }),
});
export type RunJobInput = z.input<typeof runJobSchema>;

/** Decision 0553: the Retry button of a failed mail: its id. */
export const retryMailSchema = z.object({
  mailId: z.string({ error: CONSOLE_MESSAGES.mailNotFound }).uuid({ error: CONSOLE_MESSAGES.mailNotFound }),
});
export type RetryMailInput = z.input<typeof retryMailSchema>;

/** Decision 0553: the outbox's states, as the mail page names them. */
export const MAIL_STATES = ["pending", "sent", "failed", "dropped"] as const;
export type MailState = (typeof MAIL_STATES)[number];
export const MAIL_STATE_LABELS: Readonly<Record<MailState, string>> = {
  pending: "Queued",
  sent: "Sent",
  failed: "Failed",
  dropped: "Skipped",
};

/** Decision 0553: a student's mail history, by e-mail or username (bounded like an address). */
export const mailHistorySchema = z.object({
  who: z
    .string({ error: CONSOLE_MESSAGES.historyEmpty })
    .trim()
    .min(1, { error: CONSOLE_MESSAGES.historyEmpty, abort: true })
    .max(254, { error: CONSOLE_MESSAGES.historyTooLong }),
});
