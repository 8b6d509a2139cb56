import { DomainError, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/**
 * Why filing a report was refused (decision 0540). Who may report at all (signed out, e-mail not
 * verified) is ParticipationRefused from server/accounts/gates.shared.ts instead.
 */
export type ReportErrorCode =
  /** An unknown reason, a comment over 1,000 characters, an unknown kind. → 400 */
  | "invalid-input"
  /** The target is not there, not on the reporter's campus, or a chat they are not in. → 404 */
  | "not-found"
  /** One's own post, comment, message or profile. → 400 */
  | "own-content"
  /** More than 10 reports in a rolling 24 hours. → 429 with Retry-After */
  | "rate-limited";

/** A report's refusal (decision 0140): one status per code, the message from REPORT_MESSAGES. */
export class ReportError extends DomainError<ReportErrorCode> {
  constructor(
    code: ReportErrorCode,
    message: string,
    options: { field?: string; retryAfterSeconds?: number } = {},
  ) {
    super(code, message, {
      status: statusOf(code),
      field: options.field,
      // As the posting limit (decision 0116): when to try again, to people and to scripts.
      headers:
        options.retryAfterSeconds === undefined ? {} : { "Retry-After": String(options.retryAfterSeconds) },
    });
    this.name = "ReportError";
  }
}

/** The reports' refusal of input their schema rejected (server/validation.ts parseInput). */
export function invalidReportInput(issue: InputIssue): ReportError {
  return new ReportError("invalid-input", issue.message, { field: issue.field });
}
