import type { Viewer } from "../accounts/viewer";
import { ALL_CATEGORIES, isPostCategory } from "./categories";
import { UUID_PATTERN } from "./cursor";
import { PostError } from "./errors";
import { parseRichText, type RichTextState } from "./rich-text";
import { POST_MESSAGES } from "./schemas";

/**
 * The checks posts, comments and saves share (issue 10 §3: split out of posts.ts so each of
 * those modules reads its input the same way).
 */

export interface CheckedText {
  state: RichTextState | null;
  plainText: string;
}

/**
 * spec 2 §5: the Lexical state is well formed and at most 500 characters (line breaks count 2);
 * normalised, and within the node cap of decision 0115 (over it: 'Error: Too many characters!').
 */
export function readText(input: unknown): CheckedText {
  const result = parseRichText(input);
  if (!result.ok) {
    throw new PostError(
      result.code === "unreadable" ? "invalid-input" : "too-many-characters",
      result.message,
    );
  }
  return { state: result.state, plainText: result.plainText };
}

/** spec 2 §3: one of the 32 values, or none ('All categories' in the picker means none). */
export function readCategory(input: string | null | undefined): string | null {
  if (!input || input === ALL_CATEGORIES.value) return null;
  if (!isPostCategory(input)) throw new PostError("invalid-input", POST_MESSAGES.unknownCategory);
  return input;
}

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * One's own campus only (decision 0082): posting, commenting and saving are refused
 * on another campus's content, whatever host the request came through.
 */
export function assertOwnCampus(member: Viewer, campusId: string): void {
  if (member.campusId !== campusId) throw new PostError("other-campus", POST_MESSAGES.otherCampus);
}
