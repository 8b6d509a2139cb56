import { DomainError, statusOf } from "../errors.shared";
import { TRADE_MESSAGES } from "./offer-rules.shared";

/**
 * Why a trade function refused (decision 0140): a stranger's id is 'not-found' whatever it names
 * (decision 0601), a rule of the trade 'conflict' (409), a bad amount or note 'invalid-input'.
 */
export type TradeErrorCode =
  | "invalid-input"
  | "not-found"
  | "forbidden"
  | "blocked"
  | "conflict"
  | "rate-limited";

export class TradeError extends DomainError<TradeErrorCode> {
  constructor(code: TradeErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code, { blocked: 403, conflict: 409 }), field });
    this.name = "TradeError";
  }
}

export const offerNotFound = () => new TradeError("not-found", TRADE_MESSAGES.notFound);
export const dealNotFound = () => new TradeError("not-found", TRADE_MESSAGES.dealNotFound);
export const offerChanged = () => new TradeError("conflict", TRADE_MESSAGES.offerChanged);

/** Decision 0603: the database's one-active-deal guard, met by a concurrent accept. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const fields = current as { code?: string; constraint?: string; message?: string; cause?: unknown };
    if (fields.code === "23505" && (!fields.constraint || fields.constraint === constraint)) return true;
    if (typeof fields.message === "string" && fields.message.includes(constraint)) return true;
    current = fields.cause;
  }
  return false;
}
