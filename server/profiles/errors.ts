/** Why a profile function refused (ARCHITECTURE.md rule 5): a code to branch on and the message the user sees. */
export type ProfileErrorCode =
  | "invalid-input"
  | "user-not-found"
  | "unsupported-type"
  | "too-large"
  | "unreadable"
  | "cannot-report-self";

export class ProfileError extends Error {
  constructor(
    readonly code: ProfileErrorCode,
    message: string,
    /** The form field the message belongs under, when it is about one field. */
    readonly field?: string,
  ) {
    super(message);
    this.name = "ProfileError";
  }
}

export function isProfileError(error: unknown): error is ProfileError {
  return error instanceof ProfileError;
}
