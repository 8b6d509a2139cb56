import { DomainError, statusOf } from "../errors.shared";
import { CHAT_MESSAGES } from "./schemas.shared";

/**
 * Why a chats function refused (decision 0140). Refusals of who may message at all (signed
 * out, e-mail or school not verified) are `ParticipationRefused` from server/accounts/gates.shared.ts.
 */
export type ChatErrorCode =
  /** A malformed id or cursor, a tampered form. → 400 */
  | "invalid-input"
  /** spec 2 §5: over 500 characters. → 400, danger */
  | "too-many-characters"
  /** spec 2 §5: neither text, a photo nor a shared post. → 400 */
  | "empty"
  /** spec 2 §5: not a photo by its content, or more than one file. → 400, danger */
  | "unsupported-file"
  | "file-too-large"
  | "unreadable-file"
  /** spec 2 §8: a chat that does not exist, or not the viewer's (whatever id is sent). → 404 */
  | "not-found"
  /** The recipient does not exist on the viewer's campus. → 404 */
  | "user-not-found"
  /** Messaging oneself; liking one's own message (spec 2 §6). → 403 */
  | "forbidden"
  /** Decision 0230: a block in either direction. → 403 */
  | "blocked"
  /** Decision 0571: the other person deleted their account. → 403 */
  | "account-deleted"
  /** Decision 0232: too many messages in a minute. → 429 */
  | "rate-limited";

const CHAT_STATUS: Record<string, number> = { "user-not-found": 404, blocked: 403, "account-deleted": 403 };

export class ChatError extends DomainError<ChatErrorCode> {
  constructor(code: ChatErrorCode, message: string, alertType: "danger" | "okay" = "danger") {
    super(code, message, {
      status: statusOf(code, CHAT_STATUS),
      alertType,
      headers: code === "rate-limited" ? { "Retry-After": "60" } : {},
    });
    this.name = "ChatError";
  }
}

export function isChatError(error: unknown): error is ChatError {
  return error instanceof ChatError;
}

export function chatNotFound(): ChatError {
  return new ChatError("not-found", CHAT_MESSAGES.notFound);
}

/**
 * spec 2 §5 'Error: Too many characters!': text over 500 characters by the posts' counting rule,
 * or a text field longer than any such text can be as sent (MAX_MESSAGE_FIELD_LENGTH).
 */
export function messageTooLong(): ChatError {
  return new ChatError("too-many-characters", CHAT_MESSAGES.tooManyCharacters);
}
