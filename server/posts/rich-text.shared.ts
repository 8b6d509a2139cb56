// Post and comment text (docs/architecture.md 'rich text': Lexical, stored as its JSON,
// rendered as React elements, never as raw HTML). Shared with the browser (the
// composer's counter and the post renderer): no server imports.

/** spec 2 §5, §9: post, comment and message text is at most 500 characters. */
export const MAX_POST_CHARACTERS = 500;
/** spec 2 §5: each line break counts 2 (decision 0080). */
export const LINE_BREAK_CHARACTERS = 2;
/** spec 2 §2, §9: long text is cut at 200 characters with 'See more' / 'See less'. */
export const PREVIEW_CHARACTERS = 200;
/**
 * Decisions 0080, 0115: a cap on the serialised editor state, checked before it is parsed. The
 * largest state the node cap lets through is about 35,000 characters of Lexical JSON; this is
 * about twice that, so a crafted request cannot make the server parse more.
 */
export const MAX_RICH_TEXT_JSON_LENGTH = 64 * 1024;
/**
 * Decision 0115: the nodes one text may hold once normalised — paragraphs, line
 * breaks and text runs. A real post of 500 characters needs a few dozen (a 20-line listing with a
 * bold label on each line is 60); the 500 rule alone would allow about 500 one-character runs of
 * alternating formats. The tree's depth is fixed by the schema: root → paragraph → line break or
 * text run, and at most the 8 format marks around a run.
 */
export const MAX_RICH_TEXT_NODES = 300;
/**
 * Decision 0115: what one post's text may cost in a list (feed, media, profile tabs, saved, a
 * thread's comments), counted as the elements it renders: each paragraph, line break and text
 * run is one, and each format mark of a run (bold, italic…) one more. Past it the rest of the
 * text is shown as plain text, so a list page costs at most this much per post whatever it holds.
 */
export const LIST_TEXT_BUDGET = 100;

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

export const KNOWN_FORMAT_BITS = Object.values(TEXT_FORMATS).reduce((all, bit) => all | bit, 0);
/** Lexical 0.2x+ also has case bits (lowercase, uppercase, capitalize): accepted, not shown. */
export const MAX_FORMAT_BITS = (1 << 11) - 1;
export const MAX_NODES_PER_LEVEL = 1_000;

// ---------------------------------------------------------------------------
// Normalising (decision 0115): what the editor would have made of the same text.

function sameRun(a: LexicalTextNode, b: LexicalTextNode): boolean {
  return a.format === b.format && a.detail === b.detail && a.mode === b.mode && a.style === b.style;
}

function normaliseInline(nodes: readonly LexicalInlineNode[]): LexicalInlineNode[] {
  const runs: LexicalInlineNode[] = [];
  for (const node of nodes) {
    if (node.type === "text") {
      // An empty run shows nothing.
      if (node.text === "") continue;
      const last = runs[runs.length - 1];
      if (last?.type === "text" && sameRun(last, node)) {
        runs[runs.length - 1] = { ...last, text: last.text + node.text };
        continue;
      }
    }
    runs.push(node);
  }
  return runs;
}

/**
 * The same text with adjacent text runs of the same format (and mode, detail, style) merged and
 * empty runs dropped, as Lexical itself normalises its state. It shows exactly as before and has
 * the same characters; a crafted state of 496 one-character runs becomes one run.
 */
export function normaliseRichText(state: RichTextState): RichTextState {
  return {
    root: {
      ...state.root,
      children: state.root.children.map((block) => ({ ...block, children: normaliseInline(block.children) })),
    },
  };
}

/** The nodes of a state as MAX_RICH_TEXT_NODES counts them: paragraphs, line breaks and text runs. */
export function countRichTextNodes(state: RichTextState | null): number {
  if (!state) return 0;
  let nodes = 0;
  for (const block of state.root.children) nodes += 1 + block.children.length;
  return nodes;
}

/**
 * A stored state brought within MAX_RICH_TEXT_NODES (the start-up migration of decision 0115,
 * for texts stored before the cap): normalised; if still over, its formatting is dropped so the
 * runs of each line merge (all the text stays); if still over, the nodes past the cap are cut,
 * the only case where text is lost — what the cap would not let anyone post today.
 */
export function fitRichText(state: RichTextState, maxNodes = MAX_RICH_TEXT_NODES): RichTextState {
  const normalised = normaliseRichText(state);
  if (countRichTextNodes(normalised) <= maxNodes) return normalised;
  const plain = normaliseRichText({
    root: {
      ...normalised.root,
      children: normalised.root.children.map((block) => ({
        ...block,
        children: block.children.map((node) =>
          node.type === "text" ? { ...node, format: 0, detail: 0, mode: "normal" as const } : node,
        ),
      })),
    },
  });
  if (countRichTextNodes(plain) <= maxNodes) return plain;
  const blocks: LexicalParagraphNode[] = [];
  let left = maxNodes;
  for (const block of plain.root.children) {
    if (left < 1) break;
    left -= 1;
    const children = block.children.slice(0, left);
    left -= children.length;
    blocks.push({ ...block, children });
  }
  return { root: { ...plain.root, children: blocks } };
}

// ---------------------------------------------------------------------------
// Reading, counting, plain text.

export type RichTextErrorCode = "unreadable" | "too-many-characters" | "too-many-nodes";

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
