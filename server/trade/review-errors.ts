import { DomainError, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/** Why a review action refused (docs/architecture.md rule 5, decision 0615). */
export type ReviewErrorCode =
  | "invalid-input"
  | "not-found"
  | "forbidden"
  | "not-completed"
  | "already-reviewed"
  | "window-closed"
  | "already-replied"
  | "not-published";

const STATUSES: Readonly<Record<string, number>> = {
  "not-completed": 409,
  "already-reviewed": 409,
  "window-closed": 409,
  "already-replied": 409,
  "not-published": 409,
};

export class ReviewError extends DomainError<ReviewErrorCode> {
  constructor(code: ReviewErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code, STATUSES), field });
    this.name = "ReviewError";
  }
}

export function invalidReviewInput(issue: InputIssue): ReviewError {
  return new ReviewError("invalid-input", issue.message, issue.field);
}
