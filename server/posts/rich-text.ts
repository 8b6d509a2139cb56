// Post and comment text (ARCHITECTURE.md 'rich text': Lexical, stored as its JSON,
// rendered as React elements, never as raw HTML). Shared with the browser (the
// composer's counter and the post renderer): no server imports.
import { z } from "zod";

/** spec 2 §5, §9: post, comment and message text is at most 500 characters. */
export const MAX_POST_CHARACTERS = 500;
/** spec 2 §5: each line break counts 2 (decision 0080). */
export const LINE_BREAK_CHARACTERS = 2;
/** spec 2 §2, §9: long text is cut at 200 characters with 'See more' / 'See less'. */
export const PREVIEW_CHARACTERS = 200;
/**
 * Decision 0080: a cap on the serialised editor state, far above what 500
 * characters with formatting need, so a crafted request cannot make the server parse megabytes.
 */
export const MAX_RICH_TEXT_JSON_LENGTH = 100_000;

export const RICH_TEXT_MESSAGES = {
  // spec 2 §5, §8.
  tooManyCharacters: "Error: Too many characters!",
  // Ours (decision 0080): only a broken or crafted request sees it; the editor never sends such a state.
  unreadable: "The text could not be read. Please try again.",
} as const;

// ---------------------------------------------------------------------------
// The stored shape: a Lexical SerializedEditorState limited to paragraphs,
// line breaks and text. Unknown fields are dropped and styles cleared, so what
// is stored is exactly what this file knows how to show.

export type RichTextAlign = "" | "left" | "start" | "center" | "right" | "end" | "justify";
export type RichTextDirection = "ltr" | "rtl" | null;

export interface LexicalTextNode {
  type: "text";
  version: number;
  text: string;
  /** Lexical's format bit set (bold 1, italic 2, strikethrough 4, underline 8, code 16, subscript 32, superscript 64, highlight 128). */
  format: number;
  detail: number;
  mode: "normal" | "token" | "segmented";
  style: "";
}

export interface LexicalLineBreakNode {
  type: "linebreak";
  version: number;
}

export type LexicalInlineNode = LexicalTextNode | LexicalLineBreakNode;

export interface LexicalParagraphNode {
  type: "paragraph";
  version: number;
  children: LexicalInlineNode[];
  direction: RichTextDirection;
  format: RichTextAlign;
  indent: number;
  textFormat: number;
  textStyle: "";
}

/** A validated Lexical editor state: what `posts.text` holds. */
export interface RichTextState {
  root: {
    type: "root";
    version: number;
    children: LexicalParagraphNode[];
    direction: RichTextDirection;
    format: RichTextAlign;
    indent: number;
  };
}

/** Lexical's text format bits, by name (LexicalConstants IS_BOLD … IS_HIGHLIGHT). */
export const TEXT_FORMATS = {
  bold: 1,
  italic: 1 << 1,
  strikethrough: 1 << 2,
  underline: 1 << 3,
  code: 1 << 4,
  subscript: 1 << 5,
  superscript: 1 << 6,
  highlight: 1 << 7,
} as const;

export type RichTextFormat = keyof typeof TEXT_FORMATS;

const KNOWN_FORMAT_BITS = Object.values(TEXT_FORMATS).reduce((all, bit) => all | bit, 0);
/** Lexical 0.2x+ also has case bits (lowercase, uppercase, capitalize): accepted, not shown. */
const MAX_FORMAT_BITS = (1 << 11) - 1;
const MAX_NODES_PER_LEVEL = 1_000;

const alignSchema = z.enum(["", "left", "start", "center", "right", "end", "justify"]);
const directionSchema = z.enum(["ltr", "rtl"]).nullable().default(null);
const versionSchema = z.number().int().min(0).default(1);
const indentSchema = z.number().int().min(0).max(20).default(0);

const textNodeSchema = z.object({
  type: z.literal("text"),
  version: versionSchema,
  text: z.string(),
  format: z
    .number()
    .int()
    .min(0)
    .max(MAX_FORMAT_BITS)
    .default(0)
    .transform((format) => format & KNOWN_FORMAT_BITS),
  detail: z.number().int().min(0).max(3).default(0),
  mode: z.enum(["normal", "token", "segmented"]).default("normal"),
  // Inline CSS is never kept (the composer has no style controls; a style string is a way in for tricks).
  style: z
    .string()
    .optional()
    .transform(() => "" as const),
});

const lineBreakNodeSchema = z.object({
  type: z.literal("linebreak"),
  version: versionSchema,
});

const paragraphNodeSchema = z.object({
  type: z.literal("paragraph"),
  version: versionSchema,
  children: z
    .array(z.discriminatedUnion("type", [textNodeSchema, lineBreakNodeSchema]))
    .max(MAX_NODES_PER_LEVEL),
  direction: directionSchema,
  format: alignSchema.default(""),
  indent: indentSchema,
  textFormat: z
    .number()
    .int()
    .min(0)
    .max(MAX_FORMAT_BITS)
    .default(0)
    .transform((format) => format & KNOWN_FORMAT_BITS),
  textStyle: z
    .string()
    .optional()
    .transform(() => "" as const),
});

/** The Zod schema of a stored editor state: root → paragraphs → text and line breaks, nothing else. */
export const richTextStateSchema: z.ZodType<RichTextState, unknown> = z.object({
  root: z.object({
    type: z.literal("root"),
    version: versionSchema,
    children: z.array(paragraphNodeSchema).max(MAX_NODES_PER_LEVEL),
    direction: directionSchema,
    format: alignSchema.default(""),
    indent: indentSchema,
  }),
});

// ---------------------------------------------------------------------------
// Reading, counting, plain text.

export type RichTextErrorCode = "unreadable" | "too-many-characters";

export type RichTextResult =
  | {
      ok: true;
      /** Null when there is no text at all (a files-only post): nothing is stored then. */
      state: RichTextState | null;
      plainText: string;
      /** The spec 2 §5 count, what the composer's 'n / 500' shows. */
      characters: number;
    }
  | { ok: false; code: RichTextErrorCode; message: string };

/**
 * Reads what the composer sent: a Lexical editor state as a JSON string or an
 * object, or nothing (null, undefined, '' ) for no text. Anything but
 * paragraphs, line breaks and text is refused; so is text over the limit.
 */
export function parseRichText(input: unknown, maxCharacters = MAX_POST_CHARACTERS): RichTextResult {
  const unreadable = { ok: false, code: "unreadable", message: RICH_TEXT_MESSAGES.unreadable } as const;
  let value = input;
  if (value === undefined || value === null || value === "") {
    return { ok: true, state: null, plainText: "", characters: 0 };
  }
  if (typeof value === "string") {
    if (value.length > MAX_RICH_TEXT_JSON_LENGTH) return unreadable;
    try {
      value = JSON.parse(value);
    } catch {
      return unreadable;
    }
  }
  const parsed = richTextStateSchema.safeParse(value);
  if (!parsed.success) return unreadable;
  const state = parsed.data;
  const characters = countPostCharacters(state);
  if (characters > maxCharacters) {
    return { ok: false, code: "too-many-characters", message: RICH_TEXT_MESSAGES.tooManyCharacters };
  }
  const plainText = richTextToPlainText(state);
  if (plainText.trim() === "") return { ok: true, state: null, plainText: "", characters: 0 };
  return { ok: true, state, plainText, characters };
}

/** Characters as a person counts them: code points, so an emoji is one, not two UTF-16 units. */
function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/**
 * spec 2 §5: the characters of the text, plus 2 for each line break — between
 * blocks (Enter) and inside a block (Shift+Enter) alike (decision 0080).
 */
export function countPostCharacters(state: RichTextState | null): number {
  if (!state) return 0;
  const blocks = state.root.children;
  let count = Math.max(0, blocks.length - 1) * LINE_BREAK_CHARACTERS;
  for (const block of blocks) {
    for (const node of block.children) {
      count += node.type === "text" ? codePointLength(node.text) : LINE_BREAK_CHARACTERS;
    }
  }
  return count;
}

function blockText(block: LexicalParagraphNode): string {
  return block.children.map((node) => (node.type === "text" ? node.text : "\n")).join("");
}

/** The text without formatting, blocks on their own lines: for previews, link cards and search. */
export function richTextToPlainText(state: RichTextState | null): string {
  if (!state) return "";
  return state.root.children.map(blockText).join("\n");
}

/** spec 2 §5: 'A post needs text in the first block or at least one file'. */
export function hasTextInFirstBlock(state: RichTextState | null): boolean {
  const first = state?.root.children[0];
  return first ? blockText(first).trim() !== "" : false;
}

/** An editor state holding plain text, one paragraph per line (server-made posts, tests, demo data). */
export function plainTextToRichText(text: string): RichTextState {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  return {
    root: {
      type: "root",
      version: 1,
      direction: "ltr",
      format: "",
      indent: 0,
      children: lines.map((line) => ({
        type: "paragraph",
        version: 1,
        direction: "ltr",
        format: "",
        indent: 0,
        textFormat: 0,
        textStyle: "",
        children: line
          ? [{ type: "text", version: 1, text: line, format: 0, detail: 0, mode: "normal", style: "" }]
          : [],
      })),
    },
  };
}

// ---------------------------------------------------------------------------
// The render model: a plain tree React turns into elements. Text is text: a
// '<script>' in a post stays the characters '<script>' (React escapes it).

export interface RichTextViewText {
  type: "text";
  text: string;
  /** The formats to apply, e.g. ['bold', 'italic'] → <strong><em>…</em></strong>. */
  format: RichTextFormat[];
}

export interface RichTextViewLineBreak {
  type: "linebreak";
}

export type RichTextViewInline = RichTextViewText | RichTextViewLineBreak;

export interface RichTextViewParagraph {
  type: "paragraph";
  /** Text alignment, or null for the default. */
  align: Exclude<RichTextAlign, ""> | null;
  children: RichTextViewInline[];
}

export interface RichTextView {
  type: "root";
  children: RichTextViewParagraph[];
}

function formatNames(bits: number): RichTextFormat[] {
  return (Object.keys(TEXT_FORMATS) as RichTextFormat[]).filter((name) => (bits & TEXT_FORMATS[name]) !== 0);
}

/**
 * The render model of a stored state. Accepts the raw `posts.text` column value:
 * anything that is not a valid state (never expected) renders as nothing rather
 * than as something unchecked.
 */
export function toRichTextView(stored: unknown): RichTextView | null {
  if (stored === null || stored === undefined) return null;
  const parsed = richTextStateSchema.safeParse(stored);
  if (!parsed.success) return null;
  return {
    type: "root",
    children: parsed.data.root.children.map((block) => ({
      type: "paragraph",
      align: block.format === "" ? null : block.format,
      children: block.children.map(
        (node): RichTextViewInline =>
          node.type === "text"
            ? { type: "text", text: node.text, format: formatNames(node.format) }
            : { type: "linebreak" },
      ),
    })),
  };
}

/**
 * spec 2 §2: the first `max` characters (counted as the 500 rule counts), or null
 * when the whole text fits and no 'See more' is needed.
 */
export function truncateRichTextView(view: RichTextView, max = PREVIEW_CHARACTERS): RichTextView | null {
  let budget = max;
  const blocks: RichTextViewParagraph[] = [];
  let cut = false;
  for (const [index, block] of view.children.entries()) {
    if (index > 0) {
      if (budget < LINE_BREAK_CHARACTERS) {
        cut = true;
        break;
      }
      budget -= LINE_BREAK_CHARACTERS;
    }
    const children: RichTextViewInline[] = [];
    for (const node of block.children) {
      if (node.type === "linebreak") {
        if (budget < LINE_BREAK_CHARACTERS) {
          cut = true;
          break;
        }
        budget -= LINE_BREAK_CHARACTERS;
        children.push(node);
        continue;
      }
      const characters = Array.from(node.text);
      if (characters.length > budget) {
        if (budget > 0) children.push({ ...node, text: characters.slice(0, budget).join("") });
        budget = 0;
        cut = true;
        break;
      }
      budget -= characters.length;
      children.push(node);
    }
    blocks.push({ ...block, children });
    if (cut) break;
  }
  if (!cut) return null;
  // Trailing empty lines of a cut text would only push 'See more' down.
  while (blocks.length > 1 && blocks[blocks.length - 1]?.children.length === 0) blocks.pop();
  return { type: "root", children: blocks };
}
