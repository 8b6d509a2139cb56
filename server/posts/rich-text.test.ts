import { describe, expect, it } from "vitest";
import {
  countPostCharacters,
  countRichTextNodes,
  fitRichText,
  hasTextInFirstBlock,
  MAX_POST_CHARACTERS,
  MAX_RICH_TEXT_JSON_LENGTH,
  MAX_RICH_TEXT_NODES,
  normaliseRichText,
  plainTextToRichText,
  type RichTextState,
  richTextToPlainText,
  TEXT_FORMATS,
} from "./rich-text.shared";
import { parseRichText } from "./rich-text-schema.shared";

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

  it("refuses a NUL character, which the database cannot store (docs/product/outages-and-errors.md)", () => {
    expect(parseRichText(JSON.stringify(plainTextToRichText("a\u0000b")))).toEqual({
      ok: false,
      code: "unreadable",
      message: "The text could not be read. Please try again.",
    });
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

/**
 * The probe's post as a crafted request sends it (only the fields that matter; the rest
 * default): 496 one-character runs with all 8 formats, then empty runs, 1,000 a paragraph.
 */
function probePost(emptyRuns: number): string {
  const runs = Array.from({ length: 496 }, (_, index) => ({
    type: "text",
    text: String.fromCharCode(97 + (index % 26)),
    format: ALL_FORMATS,
  }));
  const empties = Array.from({ length: emptyRuns }, () => ({ type: "text", text: "", format: 0 }));
  const blocks = [{ type: "paragraph", children: runs }];
  for (let start = 0; start < empties.length; start += 1000) {
    blocks.push({ type: "paragraph", children: empties.slice(start, start + 1000) });
  }
  return JSON.stringify({ root: { type: "root", children: blocks } });
}

describe("normalising the text before it is stored (decision 0115)", () => {
  it("refuses the probe's 94,000-character post before reading it, with 'Error: Too many characters!'", () => {
    const json = probePost(2000);
    expect(json.length).toBeGreaterThan(MAX_RICH_TEXT_JSON_LENGTH);
    expect(json.length).toBeLessThan(100_000);
    expect(parseRichText(json)).toEqual({
      ok: false,
      code: "too-many-nodes",
      message: "Error: Too many characters!",
    });
    // The length alone decides, before any parsing.
    expect(parseRichText("x".repeat(MAX_RICH_TEXT_JSON_LENGTH + 1))).toMatchObject({
      ok: false,
      code: "too-many-nodes",
    });
  });

  it("turns 496 one-character runs of one format and 500 empty runs into one run, the same text", () => {
    const result = parseRichText(probePost(500));
    if (!result.ok || !result.state) throw new Error("expected a state");
    const letters = Array.from({ length: 496 }, (_, index) => String.fromCharCode(97 + (index % 26))).join(
      "",
    );
    expect(result.state.root.children).toHaveLength(2);
    expect(result.state.root.children[0]?.children).toEqual([run(letters, ALL_FORMATS)]);
    expect(result.state.root.children[1]?.children).toEqual([]);
    expect(countRichTextNodes(result.state)).toBe(3);
    // The 500 rule counts the same: 496 characters and the break before the empty paragraph.
    expect(result.characters).toBe(498);
    expect(result.plainText).toBe(`${letters}\n`);
  });

  it("merges runs only where format, mode and detail match; line breaks and formats still split them", () => {
    const input = state(
      block(
        run("Desk "),
        run(""),
        run("lamp"),
        run(", $10", TEXT_FORMATS.bold),
        run(" firm", TEXT_FORMATS.bold),
        { type: "linebreak", version: 1 },
        run("pick"),
        run("up", TEXT_FORMATS.italic),
        { ...run(" token"), mode: "token" },
        { ...run(" token"), mode: "token" },
      ),
    );
    expect(normaliseRichText(input).root.children[0]?.children).toEqual([
      run("Desk lamp"),
      run(", $10 firm", TEXT_FORMATS.bold),
      { type: "linebreak", version: 1 },
      run("pick"),
      run("up", TEXT_FORMATS.italic),
      { ...run(" token token"), mode: "token" },
    ]);
  });

  it(`allows ${MAX_RICH_TEXT_NODES} nodes and refuses one more with the spec's message, whatever the characters`, () => {
    // Alternating formats cannot merge: one paragraph and its runs.
    const alternating = (runs: number) =>
      state(
        block(
          ...Array.from({ length: runs }, (_, index) => run("a", index % 2 === 0 ? TEXT_FORMATS.bold : 0)),
        ),
      );
    expect(parseRichText(JSON.stringify(alternating(MAX_RICH_TEXT_NODES - 1)))).toMatchObject({
      ok: true,
      characters: MAX_RICH_TEXT_NODES - 1,
    });
    expect(parseRichText(JSON.stringify(alternating(MAX_RICH_TEXT_NODES)))).toEqual({
      ok: false,
      code: "too-many-nodes",
      message: "Error: Too many characters!",
    });
  });

  it("fits a stored text over the cap: formatting dropped first (every character kept), then the rest cut", () => {
    const alternating = state(
      block(...Array.from({ length: 400 }, (_, index) => run("a", index % 2 === 0 ? ALL_FORMATS : 0))),
    );
    expect(fitRichText(alternating)).toEqual(state(block(run("a".repeat(400)))));

    const lines = state(...Array.from({ length: 200 }, (_, index) => block(run(`${index % 10}`))));
    const cut = fitRichText(lines);
    expect(countRichTextNodes(cut)).toBe(MAX_RICH_TEXT_NODES);
    expect(cut.root.children).toEqual(lines.root.children.slice(0, MAX_RICH_TEXT_NODES / 2));

    const fine = state(block(run("Desk"), run(" lamp", TEXT_FORMATS.bold)));
    expect(fitRichText(fine)).toEqual(fine);
  });
});
