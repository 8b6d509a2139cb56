import { DomainError, SOMETHING_WENT_WRONG, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/** Why a notifications function refused (decision 0140): malformed input only. → 400 */
export type NotificationErrorCode = "invalid-input";

export class NotificationError extends DomainError<NotificationErrorCode> {
  constructor(code: NotificationErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code), ...(field ? { field } : {}) });
    this.name = "NotificationError";
  }
}

/** parseInput's refusal for this area (server/validation.ts). */
export function invalidNotificationInput(issue: InputIssue): NotificationError {
  return new NotificationError("invalid-input", issue.message || SOMETHING_WENT_WRONG, issue.field);
}
