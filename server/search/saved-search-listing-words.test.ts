import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deletionForms, typoKeys } from "./saved-search-listing-words";
import { typoBudgetBetween, typoDistance } from "./text.shared";

const letters = fc.constantFrom(..."abcdeklmnorst");
const word = (min: number, max: number) =>
  fc.array(letters, { minLength: min, maxLength: max }).map((chars) => chars.join(""));

/** One typo: a letter dropped, added, changed, or two neighbours swapped. */
const typo = (text: string, kind: number, at: number, letter: string) => {
  const chars = [...text];
  const i = at % Math.max(1, chars.length);
  if (kind === 0) chars.splice(i, 1);
  else if (kind === 1) chars.splice(i, 0, letter);
  else if (kind === 2) chars[i] = letter;
  else if (i + 1 < chars.length) [chars[i], chars[i + 1]] = [chars[i + 1] ?? "", chars[i] ?? ""];
  return chars.join("");
};

describe("typo keys (decision 0622)", () => {
  it("leave out one letter up to 6 letters, two from 7, none under 4", () => {
    expect(typoKeys("lam")).toEqual([]);
    expect(typoKeys(null)).toEqual([]);
    expect(typoKeys("lamp")).toEqual(["amp", "lam", "lamp", "lap", "lmp"]);
    expect(typoKeys("bicycle")).toContain("bcyle");
    expect(typoKeys("bicycle")).not.toContain("cyle");
    expect(deletionForms("ab", 2)).toEqual(["", "a", "ab", "b"]);
  });

  it("meet every term /search could take for a misspelling of the rare word", () => {
    fc.assert(
      fc.property(
        word(4, 12),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.nat(), letters), { minLength: 1, maxLength: 2 }),
        (rare, typos) => {
          const term = typos.reduce((text, [kind, at, letter]) => typo(text, kind, at, letter), rare);
          const budget = typoBudgetBetween(rare, term);
          if (budget === 0 || typoDistance(rare, term, budget) > budget) return;
          const forms = new Set(deletionForms(term, 2));
          expect(typoKeys(rare).some((key) => forms.has(key))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
