import { DomainError, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/** Why a console function refused (docs/architecture.md rule 5). */
export type AdminErrorCode =
  | "not-found"
  | "invalid-input"
  | "reauth-required"
  | "invalid-password"
  | "no-password"
  | "too-many-requests"
  | "not-applicable"
  | "last-domain"
  | "domain-taken"
  | "already-refunded"
  | "nothing-to-refund";

/**
 * What the operator console says (decisions 0560-0565). The not-found words are the 404 page's own:
 * anyone but a site admin must not learn that a console page exists (decision 0520).
 */
export const ADMIN_MESSAGES = {
  notFound: "This page doesn't exist.",
  searchRequired: "Enter an e-mail, school e-mail, username or account id.",
  searchTooLong: "That is longer than any e-mail, username or id.",
  noStudentFound: "No account matches. Search by the exact e-mail, school e-mail, username or account id.",
  reasonRequired: "Write the reason.",
  reasonTooLong: "Keep the reason to 500 characters.",
  reasonCodeRequired: "Choose a reason category.",
  daysRequired: "Choose how long.",
  passwordRequired: "You signed in more than 10 minutes ago: enter your password to confirm this action.",
  invalidPassword: "Invalid password.",
  noPassword: "Your account has no password. Sign out and sign in again, then do this within 10 minutes.",
  tooManyPasswordTries: "Too many wrong passwords. Try again in 15 minutes.",
  notSuspended: "This student is neither suspended nor banned.",
  alreadyBanned: "This student is banned already.",
  alreadyVerified: "This student's e-mail address is verified already.",
  notYourself: "You can't do this to your own account.",
  accountDeleted: "This account has been deleted: there is nothing left to act on.",
  domainRequired: "Enter a domain, like school.edu.",
  domainInvalid: "Enter a domain name only, like school.edu (no @, no spaces).",
  domainTaken: "Another campus uses this domain.",
  domainPresent: "This campus has this domain already.",
  lastDomain: "A campus keeps at least one school e-mail domain.",
  thresholdInvalid: "Enter a weight from 1 to 50.",
  adNotRefundable: "This ad has no payment to refund.",
  nothingToRefund: "Nothing is left to refund on this ad.",
  somethingWentWrong: "Something went wrong. Try again.",
} as const;

const ADMIN_STATUSES: Readonly<Record<string, number>> = {
  "reauth-required": 401,
  "invalid-password": 401,
  "no-password": 401,
  "too-many-requests": 429,
  "domain-taken": 409,
};

export class AdminError extends DomainError<AdminErrorCode> {
  constructor(code: AdminErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code, ADMIN_STATUSES), field });
    this.name = "AdminError";
  }
}

export function adminNotFound(): AdminError {
  return new AdminError("not-found", ADMIN_MESSAGES.notFound);
}

export function invalidAdminInput(issue: InputIssue): AdminError {
  return new AdminError("invalid-input", issue.message, issue.field);
}
