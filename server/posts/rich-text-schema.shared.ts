// Reading post and comment text from a request (the server's half of rich-text.ts): the Zod
// schema of a stored Lexical state and the parser. Apart from rich-text.ts, which the browser
// loads with every post it shows, so that Zod is not part of a page's first load (decision 0340).
import { z } from "zod";
import {
  countPostCharacters,
  countRichTextNodes,
  KNOWN_FORMAT_BITS,
  MAX_FORMAT_BITS,
  MAX_NODES_PER_LEVEL,
  MAX_POST_CHARACTERS,
  MAX_RICH_TEXT_JSON_LENGTH,
  MAX_RICH_TEXT_NODES,
  normaliseRichText,
  RICH_TEXT_MESSAGES,
  type RichTextFormat,
  type RichTextResult,
  type RichTextState,
  richTextToPlainText,
  TEXT_FORMATS,
} from "./rich-text.shared";
import type { RichTextView, RichTextViewInline } from "./rich-text-view.shared";

const alignSchema = z.enum(["", "left", "start", "center", "right", "end", "justify"]);
const directionSchema = z.enum(["ltr", "rtl"]).nullable().default(null);
const versionSchema = z.number().int().min(0).default(1);
const indentSchema = z.number().int().min(0).max(20).default(0);

const textNodeSchema = z.object({
  type: z.literal("text"),
  version: versionSchema,
  // PostgreSQL's jsonb cannot hold a NUL character: refused here, not as a failed insert (docs/product/outages-and-errors.md).
  text: z.string().refine((text) => !text.includes("\u0000")),
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

/**
 * Reads what the composer sent: a Lexical editor state as a JSON string or an
 * object, or nothing (null, undefined, '' ) for no text. Anything but
 * paragraphs, line breaks and text is refused; so is text over the limit. What
 * is returned is normalised (normaliseRichText); a state that still has more
 * than MAX_RICH_TEXT_NODES nodes, or JSON longer than MAX_RICH_TEXT_JSON_LENGTH,
 * is too long: the spec's 'Error: Too many characters!' (decision 0115).
 */
export function parseRichText(input: unknown, maxCharacters = MAX_POST_CHARACTERS): RichTextResult {
  const unreadable = { ok: false, code: "unreadable", message: RICH_TEXT_MESSAGES.unreadable } as const;
  const tooLong = {
    ok: false,
    code: "too-many-nodes",
    message: RICH_TEXT_MESSAGES.tooManyCharacters,
  } as const;
  let value = input;
  if (value === undefined || value === null || value === "") {
    return { ok: true, state: null, plainText: "", characters: 0 };
  }
  if (typeof value === "string") {
    if (value.length > MAX_RICH_TEXT_JSON_LENGTH) return tooLong;
    try {
      value = JSON.parse(value);
    } catch {
      return unreadable;
    }
  }
  const parsed = richTextStateSchema.safeParse(value);
  if (!parsed.success) return unreadable;
  const state = normaliseRichText(parsed.data);
  if (countRichTextNodes(state) > MAX_RICH_TEXT_NODES) return tooLong;
  const characters = countPostCharacters(state);
  if (characters > maxCharacters) {
    return { ok: false, code: "too-many-characters", message: RICH_TEXT_MESSAGES.tooManyCharacters };
  }
  const plainText = richTextToPlainText(state);
  if (plainText.trim() === "") return { ok: true, state: null, plainText: "", characters: 0 };
  return { ok: true, state, plainText, characters };
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
