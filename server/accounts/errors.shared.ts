import { DomainError, SOMETHING_WENT_WRONG, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/**
 * What the account functions tell their callers when they refuse (docs/architecture.md rule 5):
 * a code to branch on and the message the user sees, character for character from
 * spec 1 §5 and §8 where the spec has one (decision 0021 lists our own wordings).
 */
export const ACCOUNT_MESSAGES = {
  emailTaken: "Email has already been taken.",
  banned: "Account has been banned",
  userNotFound: "Incorrect. Please try again.",
  wrongPassword: "Wrong password!",
  tooManyRequests:
    "Access to this account has been temporarily disabled due to many failed login attempts. You can immediately restore it by resetting your password or you can try again later.",
  weakPassword: "Password too short.",
  somethingWentWrong: "Something went wrong. Try again.",
  codeIncorrect: "Your code was incorrect. Please try again.",
  // Our wordings (decision 0021).
  codeDead: "Too many incorrect tries. Send a new code.",
  tooManyCodes: "Too many codes requested. Try again in an hour.",
  tooManyResetMails: "Too many reset emails requested. Try again in an hour.",
  resetUserNotFound: "User not found, try again!",
  resetLinkInvalid: "This reset link is invalid or has expired.",
  alreadyVerified: "Your email is already verified.",
  // spec 1 §2 /login?redirect=true and §8 'Magic link and reset' (decision 0060).
  magicLinkFailed: "Failed: Wrong Email.",
  magicLinkSendFailed: "An unknown error has occurred",
  // Our wording (decision 0060).
  tooManyMagicLinks: "Too many sign-in links requested. Try again in an hour.",
  // Our wording (decision 0127): the sign-ups one client address may make in an hour are used up.
  // Decision 0446: the address's 5-minute window (server/accounts/throttle.ts signUpThrottle), or
  // the hour of SIGN_UPS_PER_HOUR where an operator set it.
  tooManySignUps: "Too many sign-ups from this network. Try again in a few minutes.",
  tooManySignUpsHour: "Too many sign-ups from this network. Try again in an hour.",
  // Our wording (decision 0126): 'Claim this account' on a profile that is verified, banned or gone.
  notClaimable: "This account can't be claimed.",
} as const;

/** What account settings and school verification answer when they refuse (spec 1 §5, §8; decision 0040). */
export const SETTINGS_ERRORS = {
  usernameTaken: "That username has been taken.",
  emailTaken: "That email is taken.",
  invalidPassword: "Invalid password.",
  // spec 1 §8 'Account editing': any failure, and a campus without a domain list (spec 1 §5).
  somethingWentWrong: SOMETHING_WENT_WRONG,
  // Our wordings.
  schoolEmailTaken: "That school email is already used by another account.",
  tooManyPasswordTries: "Too many incorrect passwords. Try again in 15 minutes.",
  noPassword: "Your account has no password yet. Use Forgot password to set one.",
  emailUnverified: "Verify your email first.",
} as const;

/**
 * The code of the better-auth error our session hook throws for a banned account
 * (server/accounts/auth.ts); the Google callback passes it on as `?error=account_banned`.
 */
export const BANNED_AUTH_CODE = "account_banned";

/**
 * Decision 0573: the code of the better-auth error our account hook throws when a sign-in would
 * link a provider to a deleted account (its address reserved for 30 days); the Google callback
 * passes it on as `?error=account_reserved`.
 */
export const RESERVED_AUTH_CODE = "account_reserved";

export type AccountErrorCode =
  | "invalid-input"
  | "email-taken"
  | "banned"
  | "user-not-found"
  | "wrong-password"
  | "too-many-requests"
  | "too-many-mails"
  | "too-many-sign-ups"
  | "code-incorrect"
  | "code-dead"
  | "invalid-token"
  | "already-verified"
  // Account settings and school verification (spec 1 §5, §8; decision 0040).
  | "username-taken"
  | "invalid-password"
  | "no-password"
  | "school-email-taken"
  | "email-unverified"
  | "no-school-domains"
  // The verified student badge (decision 0682).
  | "not-school-verified"
  | "grad-year-set"
  // Passwordless and Google sign-in (decisions 0060, 0061).
  | "google-unavailable"
  // 'Claim this account' (decision 0126).
  | "not-claimable";

/** The codes whose status is not 400 (server/errors.shared.ts has the shared ones). */
const ACCOUNT_STATUS: Partial<Record<AccountErrorCode, number>> = {
  // 'Claim this account' on a profile that cannot be claimed: as if there were none (decision 0126).
  "not-claimable": 404,
};

/**
 * An account function's refusal (decision 0140): status 400 unless a table says otherwise,
 * a danger alert (spec 1 §8), and the field it belongs under when it is about one.
 */
export class AccountError extends DomainError<AccountErrorCode> {
  constructor(code: AccountErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code, ACCOUNT_STATUS), field });
    this.name = "AccountError";
  }
}

export function isAccountError(error: unknown): error is AccountError {
  return error instanceof AccountError;
}

/** The accounts area's refusal of input its schema rejected (server/validation.ts parseInput). */
export function invalidAccountInput(issue: InputIssue): AccountError {
  return new AccountError("invalid-input", issue.message, issue.field);
}
