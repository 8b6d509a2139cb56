import { describe, expect, it } from "vitest";
import {
  LIST_TEXT_BUDGET,
  MAX_RICH_TEXT_NODES,
  plainTextToRichText,
  type RichTextState,
} from "./rich-text.shared";
import { toRichTextView } from "./rich-text-schema.shared";
import { limitRichTextView, type RichTextView, truncateRichTextView } from "./rich-text-view.shared";

function paragraphs(...lines: string[]): RichTextState {
  return plainTextToRichText(lines.join("\n"));
}

describe("the render model", () => {
  it("turns the state into paragraphs of text runs with named formats", () => {
    const state = paragraphs("plain", "");
    state.root.children[0]?.children.push({
      type: "text",
      version: 1,
      text: " bold italic",
      format: 1 | 2,
      detail: 0,
      mode: "normal",
      style: "",
    });
    (state.root.children[1] as { format: string }).format = "center";
    expect(toRichTextView(state)).toEqual({
      type: "root",
      children: [
        {
          type: "paragraph",
          align: null,
          children: [
            { type: "text", text: "plain", format: [] },
            { type: "text", text: " bold italic", format: ["bold", "italic"] },
          ],
        },
        { type: "paragraph", align: "center", children: [] },
      ],
    });
  });

  it("keeps markup as text: a <script> is characters, never an element", () => {
    const view = toRichTextView(paragraphs('<script>alert("x")</script><img src=x onerror=alert(1)>'));
    expect(view?.children[0]?.children).toEqual([
      { type: "text", text: '<script>alert("x")</script><img src=x onerror=alert(1)>', format: [] },
    ]);
    // The model holds no HTML or attributes that could be injected: only these keys.
    expect(JSON.stringify(view)).not.toMatch(/"(html|__html|src|href|style)"/);
  });

  it("renders nothing for a stored value that is not a valid state", () => {
    expect(toRichTextView(null)).toBeNull();
    expect(toRichTextView({ root: { type: "root", children: [{ type: "script" }] } })).toBeNull();
  });

  it("cuts long text at 200 characters for 'See more', and not short text", () => {
    const long = toRichTextView(paragraphs("a".repeat(150), "b".repeat(100)));
    if (!long) throw new Error("expected a view");
    const preview = truncateRichTextView(long);
    expect(preview?.children).toHaveLength(2);
    expect(preview?.children[0]?.children).toEqual([{ type: "text", text: "a".repeat(150), format: [] }]);
    // 150 + 2 for the break leaves 48 of the second paragraph.
    expect(preview?.children[1]?.children).toEqual([{ type: "text", text: "b".repeat(48), format: [] }]);

    const short = toRichTextView(paragraphs("a".repeat(100), "b".repeat(98)));
    if (!short) throw new Error("expected a view");
    expect(truncateRichTextView(short)).toBeNull();
  });
});

// ---------------------------------------------------------------------------
// Decision 0115: a post's cost is bounded by its nodes, not only its characters.

const ALL_FORMATS = 255;

function run(text: string, format = 0) {
  return {
    type: "text" as const,
    version: 1,
    text,
    format,
    detail: 0,
    mode: "normal" as const,
    style: "" as const,
  };
}

function block(...children: RichTextState["root"]["children"][number]["children"]) {
  return {
    type: "paragraph" as const,
    version: 1,
    children,
    direction: "ltr" as const,
    format: "" as const,
    indent: 0,
    textFormat: 0,
    textStyle: "" as const,
  };
}

function state(...children: ReturnType<typeof block>[]): RichTextState {
  return { root: { type: "root", version: 1, children, direction: "ltr", format: "", indent: 0 } };
}

function elementsOf(view: RichTextView): number {
  let elements = 0;
  for (const paragraph of view.children) {
    elements += 1;
    for (const node of paragraph.children) elements += node.type === "text" ? 1 + node.format.length : 1;
  }
  return elements;
}

function viewText(view: RichTextView): string {
  return view.children
    .map((paragraph) => paragraph.children.map((node) => (node.type === "text" ? node.text : "\n")).join(""))
    .join("\n");
}

describe("a text's cost in a list (decision 0115)", () => {
  it(`renders at most ${LIST_TEXT_BUDGET} elements with their formatting, the rest as plain text, every character kept`, () => {
    // The largest a stored text can be: 300 nodes, all formats on every run.
    const maximal = state(
      ...Array.from({ length: MAX_RICH_TEXT_NODES / 3 }, (_, index) =>
        block(run(`${index % 10}`, ALL_FORMATS), run("x", index % 2 === 0 ? 0 : ALL_FORMATS - 1)),
      ),
    );
    const whole = toRichTextView(maximal);
    if (!whole) throw new Error("expected a view");
    const listed = limitRichTextView(whole);
    expect(elementsOf(whole)).toBeGreaterThan(1_400);
    expect(elementsOf(listed)).toBeLessThanOrEqual(LIST_TEXT_BUDGET + 2);
    expect(viewText(listed)).toBe(viewText(whole));
    expect(JSON.stringify(listed).length).toBeLessThan(8 * 1024);
    // The first runs keep their formatting.
    expect(listed.children[0]?.children[0]).toEqual({
      type: "text",
      text: "0",
      format: expect.arrayContaining(["bold", "code"]),
    });

    const short = toRichTextView(paragraphs("Desk lamp", "Barely used"));
    if (!short) throw new Error("expected a view");
    expect(limitRichTextView(short)).toBe(short);
  });

  it("cuts the plain rest for 'See more' as the 500 rule counts, a new line counting 2", () => {
    const whole = toRichTextView(paragraphs(...Array.from({ length: 120 }, () => "ab")));
    if (!whole) throw new Error("expected a view");
    const listed = limitRichTextView(whole);
    expect(elementsOf(listed)).toBeLessThan(elementsOf(whole));
    // 4 characters a line ('ab' and its break): 200 characters is 50 lines, the last without its break.
    expect(viewText(truncateRichTextView(listed) ?? listed)).toBe(
      viewText(truncateRichTextView(whole) ?? whole),
    );
  });
});
