import type { EditorState } from "lexical";
import {
  countPostCharacters,
  hasTextInFirstBlock,
  MAX_POST_CHARACTERS,
  type RichTextState,
  richTextToPlainText,
} from "~/server/posts/rich-text.shared";
import { richTextStateSchema } from "~/server/posts/rich-text-schema.shared";

/** The editor's text as the composer needs it: what is sent, and the rules' answers. */
export interface EditorText {
  /** The Lexical state as JSON text (the `text` form field), or null when nothing is written. */
  json: string | null;
  /** spec 2 §5: the 'n / 500' count, line breaks counting 2 — the server's own function. */
  characters: number;
  /** spec 2 §5: 'A post needs text in the first block or at least one file'. */
  hasText: boolean;
  overLimit: boolean;
}

export const EMPTY_EDITOR_TEXT: EditorText = { json: null, characters: 0, hasText: false, overLimit: false };

/**
 * Reads an editor state through the same schema and counter the server uses
 * (server/posts/rich-text.shared.ts), so the counter, the button and the server never disagree.
 */
export function readEditorText(editorState: EditorState): EditorText {
  return editorTextFromJson(editorState.toJSON());
}

/** The same, from a serialised state (tests, or a state kept across a navigation). */
export function editorTextFromJson(serialized: unknown): EditorText {
  const parsed = richTextStateSchema.safeParse(serialized);
  // The plain-text editor only makes paragraphs, line breaks and text; anything else is not sendable.
  if (!parsed.success) return EMPTY_EDITOR_TEXT;
  const state: RichTextState = parsed.data;
  const characters = countPostCharacters(state);
  const hasText = hasTextInFirstBlock(state);
  return {
    // As the server: a state with no visible text is no text (a files-only post).
    json: richTextToPlainText(state).trim() === "" ? null : JSON.stringify(state),
    characters,
    hasText,
    overLimit: characters > MAX_POST_CHARACTERS,
  };
}
