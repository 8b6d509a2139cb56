import { DomainError } from "../errors.shared";

/**
 * Why a write was stopped by the safety rules (docs/product/safety.md, decision 0651). The
 * message is the rule's, never text from what was written.
 */
export type SafetyErrorCode =
  /** A block rule matched: the message is not stored nor delivered; the listing is not saved. → 422 */
  | "safety-blocked"
  /** A nudge rule matched and the sender has not confirmed yet ('Send anyway' resends with the flag). → 409 */
  | "safety-nudge"
  /** Decision 0653: a flagged sender cannot start a conversation until the time the message says. → 403 */
  | "conversations-limited";

const STATUS: Record<SafetyErrorCode, number> = {
  "safety-blocked": 422,
  "safety-nudge": 409,
  "conversations-limited": 403,
};

export class SafetyError extends DomainError<SafetyErrorCode> {
  constructor(
    code: SafetyErrorCode,
    message: string,
    /** The rule that stopped the write (its stable key), for the nudge's client and for tests. */
    readonly ruleKey: string | null = null,
  ) {
    super(code, message, { status: STATUS[code], alertType: code === "safety-nudge" ? "okay" : "danger" });
    this.name = "SafetyError";
  }
}

export function isSafetyError(error: unknown): error is SafetyError {
  return error instanceof SafetyError;
}

/**
 * Decision 0651: the nudge a refused write asks its sender about (Edit / Send anyway), or null when
 * the failure is anything else — the one place that tells a nudge from other refusals.
 */
export function nudgeOf(error: unknown): { message: string; status: number } | null {
  return isSafetyError(error) && error.code === "safety-nudge"
    ? { message: error.message, status: error.status }
    : null;
}
