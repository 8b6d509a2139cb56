// Shared with the browser (the header's search box): no server imports.

/**
 * How typed search text is read (issue 12, decision 0190). A search text is trimmed, its
 * spaces collapsed and cut to MAX_SEARCH_TEXT characters; its comparison form (history,
 * popular searches) is that in lower case. Its words are the runs of letters and digits, in
 * lower case: exactly how the stored `posts.search_tsv` splits a post (schema/search.ts).
 */

/** Longer texts are cut: no search needs more, and it bounds the work one request causes. */
export const MAX_SEARCH_TEXT = 100;
/** At most this many words take part in a query (the rest of a long text is ignored). */
export const MAX_SEARCH_WORDS = 8;
/** Words longer than this are not in the dictionary (the trigger skips them) and match nothing. */
export const MAX_TERM_LENGTH = 40;

export function normaliseSearchText(text: string | null | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_SEARCH_TEXT).trim();
}

export function searchTextKey(text: string): string {
  return normaliseSearchText(text).toLowerCase();
}

/** The words of a text in order, lower case, at most MAX_SEARCH_WORDS. */
export function searchWords(text: string): string[] {
  return normaliseSearchText(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .slice(0, MAX_SEARCH_WORDS);
}

/**
 * How many typos a typed word may carry (the original's hosted search, as the issue asks):
 * none below 4 letters, 1 from 4, 2 from 8.
 */
export function typoBudget(word: string): 0 | 1 | 2 {
  const length = [...word].length;
  if (length >= 8) return 2;
  if (length >= 4) return 1;
  return 0;
}

/**
 * Edit distance with adjacent transpositions counted as one typo (optimal string alignment),
 * stopping early once it exceeds `max`: what a person calls 'one typo' ('fridge' → 'firdge').
 */
export function typoDistance(a: string, b: string, max: number): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  const width = t.length + 1;
  let previous2 = new Array<number>(width).fill(0);
  let previous = Array.from({ length: width }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = new Array<number>(width).fill(0);
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        value = Math.min(value, (previous2[j - 2] ?? 0) + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[t.length] ?? max + 1;
}
