import { describe, expect, it } from "vitest";
import { ALL_CATEGORIES, CATEGORIES, CATEGORY_OPTIONS, categoryFilter, isPostCategory } from "./categories";
import {
  countPostCharacters,
  hasTextInFirstBlock,
  MAX_POST_CHARACTERS,
  parseRichText,
  plainTextToRichText,
  type RichTextState,
  richTextToPlainText,
  toRichTextView,
  truncateRichTextView,
} from "./rich-text";

/** The editor state Lexical serialises for one paragraph 'Hi' (its exact JSON shape). */
const lexicalHi = {
  root: {
    children: [
      {
        children: [{ detail: 0, format: 0, mode: "normal", style: "", text: "Hi", type: "text", version: 1 }],
        direction: "ltr",
        format: "",
        indent: 0,
        type: "paragraph",
        version: 1,
      },
    ],
    direction: "ltr",
    format: "",
    indent: 0,
    type: "root",
    version: 1,
  },
};

function paragraphs(...lines: string[]): RichTextState {
  return plainTextToRichText(lines.join("\n"));
}

describe("categories (spec 2 §3)", () => {
  it("lists 'All categories' first, then the 32 categories with lower-case values", () => {
    expect(CATEGORY_OPTIONS[0]).toEqual({ text: "All categories", value: "all" });
    expect(CATEGORIES).toHaveLength(32);
    expect(CATEGORIES[0]).toEqual({ text: "Audio & Speakers", value: "audio & speakers" });
    expect(CATEGORIES[27]).toEqual({ text: "TVs & Media players", value: "tvs & media players" });
    expect(CATEGORIES[31]).toEqual({ text: "3D Printers & Supplies", value: "3d printers & supplies" });
    for (const category of CATEGORIES) expect(category.value).toBe(category.text.toLowerCase());
  });

  it("stores categories, never 'all'; filters fall back to every category", () => {
    expect(isPostCategory("books/movies/music")).toBe(true);
    expect(isPostCategory(ALL_CATEGORIES.value)).toBe(false);
    expect(isPostCategory("Books/Movies/Music")).toBe(false);
    expect(categoryFilter("all")).toBeNull();
    expect(categoryFilter("nonsense")).toBeNull();
    expect(categoryFilter("drones")).toBe("drones");
  });
});

describe("reading the editor state", () => {
  it("accepts Lexical's JSON, as text or as an object", () => {
    for (const input of [lexicalHi, JSON.stringify(lexicalHi)]) {
      const result = parseRichText(input);
      expect(result).toMatchObject({ ok: true, plainText: "Hi", characters: 2 });
    }
  });

  it("treats nothing and an empty editor as no text", () => {
    for (const input of [null, undefined, "", plainTextToRichText(""), plainTextToRichText("  \n ")]) {
      expect(parseRichText(input)).toEqual({ ok: true, state: null, plainText: "", characters: 0 });
    }
  });

  it("refuses anything but paragraphs, line breaks and text, and malformed input", () => {
    const withImage = structuredClone(lexicalHi) as { root: { children: unknown[] } };
    withImage.root.children.push({ type: "image", src: "javascript:alert(1)", version: 1 });
    const withHeading = structuredClone(lexicalHi) as { root: { children: { type: string }[] } };
    (withHeading.root.children[0] as { type: string }).type = "heading";
    const withLink = structuredClone(lexicalHi) as { root: { children: { children: unknown[] }[] } };
    withLink.root.children[0]?.children.push({
      type: "link",
      url: "https://x.example",
      children: [],
      version: 1,
    });
    const nested = structuredClone(lexicalHi) as { root: { children: { children: unknown[] }[] } };
    nested.root.children[0]?.children.push({ type: "paragraph", children: [], version: 1 });
    for (const input of [
      "{not json",
      "[]",
      42,
      { root: null },
      { root: { type: "paragraph", children: [] } },
      withImage,
      withHeading,
      withLink,
      nested,
      {
        root: { ...lexicalHi.root, children: [{ type: "paragraph", children: [{ type: "text", text: 5 }] }] },
      },
    ]) {
      expect(parseRichText(input)).toEqual({
        ok: false,
        code: "unreadable",
        message: "The text could not be read. Please try again.",
      });
    }
  });

  it("drops inline styles and unknown fields from what is stored", () => {
    const styled = structuredClone(lexicalHi);
    const text = styled.root.children[0]?.children[0] as Record<string, unknown>;
    text.style = "background: url(https://tracker.example/x)";
    text.$extra = "kept?";
    const result = parseRichText(styled);
    if (!result.ok || !result.state) throw new Error("expected a state");
    const stored = result.state.root.children[0]?.children[0];
    expect(stored).toEqual({
      type: "text",
      version: 1,
      text: "Hi",
      format: 0,
      detail: 0,
      mode: "normal",
      style: "",
    });
  });
});

describe("the 500-character rule (spec 2 §5)", () => {
  it("counts characters, and 2 for each line break between blocks", () => {
    expect(countPostCharacters(paragraphs("abc"))).toBe(3);
    expect(countPostCharacters(paragraphs("abc", "de"))).toBe(3 + 2 + 2);
    expect(countPostCharacters(paragraphs("a", "", "b"))).toBe(1 + 2 + 2 + 1);
    // An emoji is one character to a person.
    expect(countPostCharacters(paragraphs("👍🏽!"))).toBe(3);
  });

  it("counts a line break inside a block (Shift+Enter) as 2 as well", () => {
    const state = paragraphs("ab");
    state.root.children[0]?.children.push(
      { type: "linebreak", version: 1 },
      { type: "text", version: 1, text: "c", format: 0, detail: 0, mode: "normal", style: "" },
    );
    expect(countPostCharacters(state)).toBe(2 + 2 + 1);
    expect(richTextToPlainText(state)).toBe("ab\nc");
  });

  it("allows exactly 500 and refuses 501 with 'Error: Too many characters!'", () => {
    expect(parseRichText(paragraphs("x".repeat(MAX_POST_CHARACTERS)))).toMatchObject({
      ok: true,
      characters: 500,
    });
    expect(parseRichText(paragraphs("x".repeat(501)))).toEqual({
      ok: false,
      code: "too-many-characters",
      message: "Error: Too many characters!",
    });
  });

  it("makes line breaks push a text over: 496 characters in 3 blocks is 500, in 4 blocks 502", () => {
    const three = paragraphs("x".repeat(400), "y".repeat(50), "z".repeat(46));
    expect(countPostCharacters(three)).toBe(500);
    expect(parseRichText(three).ok).toBe(true);
    const four = paragraphs("x".repeat(400), "y".repeat(50), "z".repeat(45), "w");
    expect(countPostCharacters(four)).toBe(502);
    expect(parseRichText(four)).toMatchObject({ ok: false, code: "too-many-characters" });
  });

  it("refuses a flood of empty lines", () => {
    expect(parseRichText(paragraphs("a", ...Array.from({ length: 250 }, () => "")))).toMatchObject({
      ok: false,
      code: "too-many-characters",
    });
  });
});

describe("text in the first block (spec 2 §5)", () => {
  it("is required of the first block, not of any block", () => {
    expect(hasTextInFirstBlock(paragraphs("Selling a desk"))).toBe(true);
    expect(hasTextInFirstBlock(paragraphs("", "Selling a desk"))).toBe(false);
    expect(hasTextInFirstBlock(paragraphs("   ", "x"))).toBe(false);
    expect(hasTextInFirstBlock(null)).toBe(false);
  });
});

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
