import { DomainError, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/** Why a profile function refused (docs/architecture.md rule 5): a code to branch on and the message the user sees. */
export type ProfileErrorCode =
  | "invalid-input"
  | "user-not-found"
  | "unsupported-type"
  | "too-large"
  | "unreadable";

/** A profile function's refusal (decision 0140): status 400, a danger alert, its field when it has one. */
export class ProfileError extends DomainError<ProfileErrorCode> {
  constructor(code: ProfileErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code), field });
    this.name = "ProfileError";
  }
}

export function isProfileError(error: unknown): error is ProfileError {
  return error instanceof ProfileError;
}

/** The profiles area's refusal of input its schema rejected (server/validation.ts parseInput). */
export function invalidProfileInput(issue: InputIssue): ProfileError {
  return new ProfileError("invalid-input", issue.message, issue.field);
}
