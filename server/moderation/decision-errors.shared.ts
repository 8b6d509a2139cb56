import { DomainError, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/** Why a staff decision was refused (docs/architecture.md rule 5; decisions 0541, 0543). */
export type DecisionErrorCode =
  | "invalid-input"
  | "already-handled"
  | "item-changed"
  | "not-applicable"
  | "own-decision";

const DECISION_STATUSES: Readonly<Record<string, number>> = {
  "already-handled": 409,
  "item-changed": 409,
  "own-decision": 403,
};

export class DecisionError extends DomainError<DecisionErrorCode> {
  constructor(code: DecisionErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code, DECISION_STATUSES), field });
    this.name = "DecisionError";
  }
}

export function invalidDecisionInput(issue: InputIssue): DecisionError {
  return new DecisionError("invalid-input", issue.message, issue.field);
}
