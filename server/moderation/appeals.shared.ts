import { z } from "zod";
import { DomainError, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";
import { APPEAL_MESSAGES, APPEAL_RULES } from "./rules.shared";

/** Why filing an appeal was refused (decision 0545). */
export type AppealErrorCode =
  | "not-found"
  | "invalid-input"
  | "window-closed"
  | "already-appealed"
  | "overruled";

const APPEAL_STATUSES: Readonly<Record<string, number>> = {
  "window-closed": 409,
  "already-appealed": 409,
  overruled: 409,
};

export class AppealError extends DomainError<AppealErrorCode> {
  constructor(code: AppealErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code, APPEAL_STATUSES), field });
    this.name = "AppealError";
  }
}

export function invalidAppealInput(issue: InputIssue): AppealError {
  return new AppealError("invalid-input", issue.message, issue.field);
}

/**
 * Decision 0545: an appeal's words are plain text, counted after trimming and with every line break
 * as one character (a browser sends a textarea's line breaks as two), as its counter counts them.
 */
export function appealText(raw: string): string {
  return raw.replace(/\r\n?/g, "\n").trim();
}

/** Decision 0545: the Appeal form of a strike, read the same on the standing page and by fileAppeal. */
export const appealSchema = z.object({
  strikeId: z.string({ error: APPEAL_MESSAGES.strikeNotFound }),
  text: z
    .string({ error: APPEAL_MESSAGES.tooShort })
    .transform(appealText)
    .pipe(
      z
        .string()
        .min(APPEAL_RULES.minLength, { error: APPEAL_MESSAGES.tooShort })
        .max(APPEAL_RULES.maxLength, { error: APPEAL_MESSAGES.tooLong }),
    ),
});
export type AppealInput = z.input<typeof appealSchema>;
