import { type AlertType, DomainError, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/**
 * Why a posts function refused (docs/architecture.md rule 5): a code to branch on, the
 * message the user sees (spec 2 §8 where the spec has one) and the alert type the
 * spec gives it. Refusals of who may act at all (signed out, unverified, profile
 * not set up) are `ParticipationRefused` from server/accounts/gates.shared.ts instead.
 */
export type PostErrorCode =
  /** Malformed text, an unknown category, a tampered cursor. → 400 */
  | "invalid-input"
  /** spec 2 §5: over 500 characters. → 400, danger alert */
  | "too-many-characters"
  /** spec 2 §5: neither text in the first block nor a file. → 400 */
  | "empty"
  /** spec 2 §5: more than 10 files. → 400, okay alert */
  | "too-many-files"
  /** spec 2 §5: not a photo or video by its content. → 400, danger alert */
  | "unsupported-file"
  /** Decision 0082: over the size cap, or too many pixels to process. → 400 (413) */
  | "file-too-large"
  /** A photo whose bytes say image but cannot be decoded. → 400 */
  | "unreadable-file"
  /** Posting or commenting in a campus other than one's own. → 403 */
  | "other-campus"
  /** spec 2 §6: a private community's content, asked for by a visitor. → 403, the private gate */
  | "private-campus"
  /** The post (or the parent of a reply) does not exist. → 404, 'Sorry, that post has been deleted.' */
  | "not-found"
  /** Deleting someone else's post or comment. → 403 */
  | "forbidden"
  /** Decision 0116: too many posts and comments in a minute or a day. → 429 with Retry-After */
  | "rate-limited"
  /** Decision 0170: a listing change its state does not allow (sold → reserved, renewing a fresh one, boosting a sold one). → 409 */
  | "listing-state";

export type PostAlertType = AlertType;

/** A posts function's refusal (decision 0140): the statuses above, one per code wherever it is answered. */
export class PostError extends DomainError<PostErrorCode> {
  constructor(
    code: PostErrorCode,
    message: string,
    /** The alert type spec 2 §8 shows this message with. */
    alertType: PostAlertType = "danger",
    /** For 'rate-limited': seconds until the author may post again (the Retry-After header). */
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message, {
      status: statusOf(code, { "listing-state": 409 }),
      alertType,
      // Decision 0116: the posting limit says when to try again, to people and to scripts.
      headers: retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) },
    });
    this.name = "PostError";
  }
}

export function isPostError(error: unknown): error is PostError {
  return error instanceof PostError;
}

/**
 * The posts area's refusal of input its schema rejected (server/validation.ts parseInput):
 * 'too-many-characters' when the schema says so (spec 2 §5), else 'invalid-input'.
 */
export function invalidPostInput(issue: InputIssue): PostError {
  return new PostError(
    issue.params.postError === "too-many-characters" ? "too-many-characters" : "invalid-input",
    issue.message,
  );
}
