import { type AlertType, DomainError, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/** spec 2 §8 and §5: the ads flow's messages, spelled as the spec spells them. */
export const AD_MESSAGES = {
  boostRefused: "Something Went Wrong. Please logout and try again.",
  alreadyBoosted: "This post is already boosted",
  websiteRequired: "Website is required.",
  websiteInvalid: "Website URL must have https & www.",
  websiteTooLong: "Website URL can be at most 50 characters.",
  labelRequired: "Button label is required.",
  titleTooLong: "Title can be at most 50 characters.",
  titleRequired: "Title is required.",
  onlyActiveCanPause: "Only active ads can be paused",
  onlyPausedCanResume: "Only paused ads can be resumed",
  adNotFound: "Ad not found",
  alreadyStopped: "Ad is already stopped",
  failedToStop: "Failed to stop ad",
  failedToActivate: "Failed to activate ad",
  paused: "Ad paused successfully",
  resumed: "Ad Resumed!",
  stopped: "Ad stopped.",
  processing: "Ad is being processed",
  saved: "Saved changes!",
  running: "Success! Your ad is running..",
  cancelled: "Cancelled boost post request",
  adGone: "Sorry, that ad has been deleted.",
  somethingWentWrong: "Something went wrong",
  cardDeclined: "Your card was declined.",
  cardInvalid: "Enter one of the test cards shown.",
  checkoutExpired: "This checkout has expired. Please boost the post again.",
} as const;

export type AdErrorCode =
  | "invalid-input"
  | "not-found"
  | "forbidden"
  | "signed-out"
  | "already-boosted"
  | "not-boostable"
  | "illegal-transition"
  | "payment-failed"
  | "expired";

const AD_STATUS: Record<string, number> = {
  "signed-out": 401,
  "already-boosted": 409,
  "not-boostable": 409,
  expired: 410,
};

/** An ads function's refusal (decision 0140: one error path). */
export class AdError extends DomainError<AdErrorCode> {
  constructor(code: AdErrorCode, message: string, options: { alertType?: AlertType; field?: string } = {}) {
    super(code, message, { status: statusOf(code, AD_STATUS), ...options });
    this.name = "AdError";
  }
}

export function isAdError(error: unknown): error is AdError {
  return error instanceof AdError;
}

export function invalidAdInput(issue: InputIssue): AdError {
  return new AdError("invalid-input", issue.message, { field: issue.field });
}
