// Shared with the browser (the header's search box): no server imports.

/**
 * How typed search text is read (decision 0190). A search text is trimmed, its
 * spaces (and control characters) collapsed and cut to MAX_SEARCH_TEXT characters; its comparison form (history,
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
  // Control characters read as spaces: a NUL, typed into an address, is no text PostgreSQL stores.
  return (text ?? "")
    .replace(/[\s\p{Cc}]+/gu, " ")
    .trim()
    .slice(0, MAX_SEARCH_TEXT)
    .trim();
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
 * How many typos a word may carry (the original's hosted search, as the issue asks): none below
 * 4 letters, 1 from 4, 2 from 8.
 */
export function typoBudget(word: string): 0 | 1 | 2 {
  const length = [...word].length;
  if (length >= 8) return 2;
  if (length >= 4) return 1;
  return 0;
}

/**
 * The typos allowed between a typed word and a dictionary term (decision 0310): the budget of
 * the longer of the two, since a typo may have removed a letter ('notebok' is two typos from
 * 'notebook', an 8-letter word); a typed word under 4 letters is taken as typed.
 */
export function typoBudgetBetween(typed: string, term: string): 0 | 1 | 2 {
  if ([...typed].length < 4) return 0;
  return typoBudget([...typed].length >= [...term].length ? typed : term);
}

/**
 * Edit distance with a swap of two neighbouring letters counted as one typo, however the typos
 * overlap (Damerau–Levenshtein, the unrestricted form: 'limtobin' → 'litumobin' is a swap then
 * an added letter, 2), stopping early once it exceeds `max`: what a person calls a typo.
 */
export function typoDistance(a: string, b: string, max: number): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  const infinity = s.length + t.length;
  const width = t.length + 2;
  // d[(i + 1) * width + (j + 1)] is the distance of s[0, i) to t[0, j); row and column 0 hold `infinity`.
  const d = new Array<number>((s.length + 2) * width).fill(0);
  d[0] = infinity;
  for (let i = 0; i <= s.length; i++) {
    d[(i + 1) * width] = infinity;
    d[(i + 1) * width + 1] = i;
  }
  for (let j = 0; j <= t.length; j++) {
    d[j + 1] = infinity;
    d[width + j + 1] = j;
  }
  /** The last row where each letter of `s` was seen. */
  const lastRow = new Map<string, number>();
  for (let i = 1; i <= s.length; i++) {
    let lastMatchColumn = 0;
    let rowMin = infinity;
    for (let j = 1; j <= t.length; j++) {
      const k = lastRow.get(t[j - 1] ?? "") ?? 0;
      const l = lastMatchColumn;
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      if (cost === 0) lastMatchColumn = j;
      const value = Math.min(
        (d[i * width + j] ?? 0) + cost,
        (d[(i + 1) * width + j] ?? 0) + 1,
        (d[i * width + j + 1] ?? 0) + 1,
        (d[k * width + l] ?? 0) + (i - k - 1) + 1 + (j - l - 1),
      );
      d[(i + 1) * width + j + 1] = value;
      if (value < rowMin) rowMin = value;
    }
    if (t.length > 0 && rowMin > max) return max + 1;
    lastRow.set(s[i - 1] ?? "", i);
  }
  return Math.min(d[(s.length + 1) * width + t.length + 1] ?? max + 1, max + 1);
}
