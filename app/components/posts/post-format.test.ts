import { describe, expect, test } from "vitest";
import { plainTextToRichText } from "~/server/posts/rich-text.shared";
import { toRichTextView } from "~/server/posts/rich-text-schema.shared";
import { truncateRichTextView } from "~/server/posts/rich-text-view.shared";
import {
  cutPlainText,
  displayName,
  formatAge,
  formatAgeAgo,
  formatTimestamp,
  SEE_LESS,
  SEE_MORE,
  textToShow,
} from "./post-format";

const now = new Date("2026-03-10T12:00:00.000Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("formatAge", () => {
  test.each([
    [0, "now"],
    [59_000, "now"],
    [MINUTE, "1m"],
    [59 * MINUTE, "59m"],
    [HOUR, "1h"],
    [2 * HOUR + 59 * MINUTE, "2h"],
    [23 * HOUR, "23h"],
    [DAY, "1d"],
    [3 * DAY, "3d"],
    [6 * DAY, "6d"],
    [7 * DAY, "1w"],
    [4 * 7 * DAY, "4w"],
  ])("%i ms ago reads %s", (elapsed, expected) => {
    expect(formatAge(ago(elapsed), now, "UTC")).toBe(expected);
  });

  test("older posts show their date, with the year only when it is not this year's", () => {
    expect(formatAge(new Date("2026-01-04T09:00:00Z"), now, "UTC")).toBe("Jan 4");
    expect(formatAge(new Date("2025-12-24T09:00:00Z"), now, "UTC")).toBe("Dec 24, 2025");
  });

  test("a date slightly in the future (clock skew) reads now", () => {
    expect(formatAge(new Date(now.getTime() + 5_000), now, "UTC")).toBe("now");
  });
});

describe("formatAgeAgo", () => {
  test("says the age in words, singular and plural", () => {
    expect(formatAgeAgo(ago(10_000), now)).toBe("just now");
    expect(formatAgeAgo(ago(MINUTE), now)).toBe("1 minute ago");
    expect(formatAgeAgo(ago(5 * MINUTE), now)).toBe("5 minutes ago");
    expect(formatAgeAgo(ago(HOUR), now)).toBe("1 hour ago");
    expect(formatAgeAgo(ago(3 * DAY), now)).toBe("3 days ago");
    expect(formatAgeAgo(ago(14 * DAY), now)).toBe("2 weeks ago");
    expect(formatAgeAgo(ago(90 * DAY), now)).toBe("3 months ago");
    expect(formatAgeAgo(ago(800 * DAY), now)).toBe("2 years ago");
  });
});

describe("formatTimestamp", () => {
  test("is the clock time and the date, in 12-hour time", () => {
    expect(formatTimestamp(new Date("2026-03-04T15:45:00Z"), "UTC")).toBe("3:45 PM UTC · Mar 4, 2026");
    expect(formatTimestamp(new Date("2026-03-04T00:05:00Z"), "UTC")).toBe("12:05 AM UTC · Mar 4, 2026");
    expect(formatTimestamp(new Date("2026-03-04T12:00:00Z"), "UTC")).toBe("12:00 PM UTC · Mar 4, 2026");
  });
});

test("displayName is the first name and the stored last initial", () => {
  expect(displayName({ firstName: "Jamie", lastName: "R." })).toBe("Jamie R.");
});

describe("cutPlainText", () => {
  test("keeps short text, collapsing whitespace", () => {
    expect(cutPlainText("  Mini fridge\nbarely used  ", 200)).toBe("Mini fridge barely used");
  });

  test("cuts long text at a word with an ellipsis, within the limit", () => {
    const text = "Selling my calculus textbook in great condition with no highlights at all";
    const cut = cutPlainText(text, 40);
    expect(cut).toBe("Selling my calculus textbook in great…");
    expect(Array.from(cut).length).toBeLessThanOrEqual(40);
  });
});

describe("textToShow ('See more' / 'See less', spec 2 §2)", () => {
  const long = toRichTextView(plainTextToRichText("a".repeat(260)));
  const short = toRichTextView(plainTextToRichText("Desk lamp, $10"));
  if (!long || !short) throw new Error("fixture");
  const preview = truncateRichTextView(long);

  test("a text within 200 characters shows whole, with no toggle", () => {
    expect(truncateRichTextView(short)).toBeNull();
    expect(textToShow(short, false)).toEqual({ view: short, toggle: null });
    expect(textToShow(short, true)).toEqual({ view: short, toggle: null });
  });

  test("a longer text shows its cut with 'See more', and all of it with 'See less' once expanded", () => {
    expect(preview).not.toBeNull();
    expect(textToShow(long, false)).toEqual({ view: preview, toggle: SEE_MORE });
    expect(textToShow(long, true)).toEqual({ view: long, toggle: SEE_LESS });
    expect(SEE_MORE).toBe("See more");
    expect(SEE_LESS).toBe("See less");
  });
});
