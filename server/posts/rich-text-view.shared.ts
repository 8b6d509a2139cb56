import {
  LINE_BREAK_CHARACTERS,
  LIST_TEXT_BUDGET,
  PREVIEW_CHARACTERS,
  type RichTextAlign,
  type RichTextFormat,
} from "./rich-text.shared";

// The render model of post and comment text (rich-text.ts): a plain tree React turns into
// elements. Text is text: a '<script>' in a post stays the characters '<script>' (React escapes
// it). Shared with the browser (the post renderer): no server imports.

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

function viewBlockText(children: readonly RichTextViewInline[]): string {
  return children.map((node) => (node.type === "text" ? node.text : "\n")).join("");
}

/** What one inline node renders: the node, and one element per format mark around a text run. */
function renderCost(node: RichTextViewInline): number {
  return node.type === "text" ? 1 + node.format.length : 1;
}

/**
 * A text as a list shows it (decision 0115): at most `budget` rendered elements with
 * their paragraphs and formatting (LIST_TEXT_BUDGET), then the rest of the text in
 * one plain run, its line breaks as '\n' (shown as new lines: RichText keeps
 * white space). Every character stays; only formatting past the budget is not
 * shown, and the post's own page shows it all. The same view when it fits.
 */
export function limitRichTextView(view: RichTextView, budget = LIST_TEXT_BUDGET): RichTextView {
  let left = budget;
  const blocks: RichTextViewParagraph[] = [];
  for (const [index, block] of view.children.entries()) {
    // A paragraph with at least one of its nodes, or the rest in one plain paragraph.
    if (left < 2 && (left < 1 || block.children.length > 0)) {
      const rest = view.children.slice(index).map((later) => viewBlockText(later.children));
      blocks.push({
        type: "paragraph",
        align: null,
        children: [{ type: "text", text: rest.join("\n"), format: [] }],
      });
      return { type: "root", children: blocks };
    }
    left -= 1;
    const children: RichTextViewInline[] = [];
    for (const [nodeIndex, node] of block.children.entries()) {
      const cost = renderCost(node);
      if (cost > left) {
        const rest = [
          viewBlockText(block.children.slice(nodeIndex)),
          ...view.children.slice(index + 1).map((later) => viewBlockText(later.children)),
        ];
        children.push({ type: "text", text: rest.join("\n"), format: [] });
        blocks.push({ ...block, children });
        return { type: "root", children: blocks };
      }
      left -= cost;
      children.push(node);
    }
    blocks.push({ ...block, children });
  }
  return view;
}

/** Characters as the 500 rule counts them; a '\n' inside a run (limitRichTextView's plain rest) is a line break. */
function characterCost(character: string): number {
  return character === "\n" ? LINE_BREAK_CHARACTERS : 1;
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
      let kept = 0;
      let cost = 0;
      while (kept < characters.length && cost + characterCost(characters[kept] ?? "") <= budget) {
        cost += characterCost(characters[kept] ?? "");
        kept++;
      }
      if (kept < characters.length) {
        if (kept > 0) children.push({ ...node, text: characters.slice(0, kept).join("") });
        budget = 0;
        cut = true;
        break;
      }
      budget -= cost;
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
