import { DomainError, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/** Why a staff function refused (docs/architecture.md rule 5). */
export type StaffErrorCode =
  | "not-found"
  | "invalid-input"
  | "unknown-email"
  | "unverified-email"
  | "unknown-campus"
  | "already-moderator"
  | "not-moderator";

/**
 * Decision 0520: what the staff pages and the command say. 'This page doesn't exist.' is the
 * not-found page's own words: a request from anyone but staff must not learn that a staff page
 * exists.
 */
export const STAFF_MESSAGES = {
  notFound: "This page doesn't exist.",
  emailRequired: "Enter the student's e-mail address.",
  emailInvalid: "Enter an e-mail address, like name@school.edu.",
  campusRequired: "Choose a campus.",
  unknownEmail: "No account uses this e-mail address.",
  unverifiedEmail: "This account has not verified its e-mail address yet.",
  unknownCampus: "There is no campus with this id.",
  alreadyModerator: "They already moderate this campus.",
  notModerator: "They are no longer a moderator of this campus.",
  moderatorAppointed: "Moderator appointed.",
  moderatorRemoved: "Moderator removed.",
  somethingWentWrong: "Something went wrong. Try again.",
} as const;

const STAFF_STATUSES: Readonly<Record<string, number>> = { "not-moderator": 404 };

export class StaffError extends DomainError<StaffErrorCode> {
  constructor(code: StaffErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code, STAFF_STATUSES), field });
    this.name = "StaffError";
  }
}

/** Decision 0520: the answer to anyone but the staff a page or action is for. */
export function staffNotFound(): StaffError {
  return new StaffError("not-found", STAFF_MESSAGES.notFound);
}

export function invalidStaffInput(issue: InputIssue): StaffError {
  return new StaffError("invalid-input", issue.message, issue.field);
}
