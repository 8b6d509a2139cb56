import { DomainError, statusOf } from "../errors.shared";

/**
 * Decisions 0570 and 0571: what the data page (/settings/account/data) and its archive link
 * say, in the product's words. Shared with the page, which shows the same sentences.
 */
export const PRIVACY_MESSAGES = {
  exportRequested: "We're preparing your archive. We'll e-mail you a link when it's ready.",
  exportPending: "Your archive is being prepared. We'll e-mail you a link when it's ready.",
  exportTooSoon: "You can ask for one archive a day. Try again tomorrow.",
  passwordRequired: "Enter your password.",
  passwordWrong: "That password isn't right.",
  tooManyTries: "Too many tries. Wait 15 minutes and try again.",
  codeRequired: "Enter the 4-digit code we e-mailed you.",
  codeFormat: "The code is 4 digits.",
  codeWrong: "That code isn't right, or it has expired. Ask for a new one.",
  codeSent: "We e-mailed you a 4-digit code. It works for 2 hours.",
  tooManyCodes: "We've sent 3 codes in the last hour. Try again later.",
  confirmRequired: "Tick the box to confirm you want to delete your account.",
  usePassword: "Your account has a password: confirm with it.",
  accountDeleted: "Your account has been deleted.",
  linkGone: "This page doesn't exist.",
  somethingWentWrong: "Something went wrong. Try again.",
} as const;

export type PrivacyErrorCode =
  | "not-found"
  | "invalid-input"
  | "export-pending"
  | "rate-limited"
  | "wrong-password"
  | "wrong-code"
  | "has-password"
  | "too-many-tries";

const PRIVACY_STATUSES: Readonly<Record<string, number>> = {
  "export-pending": 409,
  "too-many-tries": 429,
};

export class PrivacyError extends DomainError<PrivacyErrorCode> {
  constructor(code: PrivacyErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code, PRIVACY_STATUSES), field });
    this.name = "PrivacyError";
  }
}
