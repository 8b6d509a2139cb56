import { describe, expect, it } from "vitest";
import { LIST_TEXT_BUDGET, plainTextToRichText } from "./rich-text.shared";
import { toRichTextView } from "./rich-text-schema.shared";
import { limitRichTextView } from "./rich-text-view.shared";
import { textViewsOf } from "./text-views";

// Decision 0380: a stored text's views are built once per text, shared by every page.

const stored = (text: string) => JSON.stringify(plainTextToRichText(text));

describe("textViewsOf", () => {
  it("gives the whole view and the list's view of a stored text", () => {
    const long = Array.from({ length: 120 }, (_, i) => `line ${i}`).join("\n");
    const views = textViewsOf(stored(long));
    const whole = toRichTextView(plainTextToRichText(long));
    expect(views.whole).toEqual(whole);
    expect(views.listed).toEqual(whole ? limitRichTextView(whole, LIST_TEXT_BUDGET) : null);
    expect(views.listed?.children.length).toBeLessThan(views.whole?.children.length ?? 0);
  });

  it("builds a text's views once and shares them, frozen, with every later read", () => {
    const text = stored("Mini fridge for the dorm, works great.");
    const first = textViewsOf(text);
    // A new string of the same text, as the next page's row brings it.
    const again = textViewsOf(`${text} `.trimEnd());
    expect(again).toBe(first);
    expect(Object.isFrozen(first.whole?.children[0]?.children[0])).toBe(true);
  });

  it("an edited text is a new key: its views are the new text's", () => {
    expect(textViewsOf(stored("Desk lamp, $10")).whole).toEqual(
      toRichTextView(plainTextToRichText("Desk lamp, $10")),
    );
    expect(textViewsOf(stored("Desk lamp, $8")).whole).toEqual(
      toRichTextView(plainTextToRichText("Desk lamp, $8")),
    );
  });

  it("no text, or a stored value that is not a valid state, renders as nothing", () => {
    expect(textViewsOf(null)).toEqual({ whole: null, listed: null });
    expect(textViewsOf("{not json")).toEqual({ whole: null, listed: null });
    expect(textViewsOf(JSON.stringify({ root: { children: "no" } }))).toEqual({ whole: null, listed: null });
  });
});
