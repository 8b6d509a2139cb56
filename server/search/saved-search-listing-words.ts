import { sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { rowsOf } from "./terms";
import { typoBudgetBetween, typoDistance } from "./text.shared";

/**
 * Decision 0621 (the shortcut): what the matcher needs of one listing's words. `all` are the words
 * /search indexed for it (its search vector), `known` those of them the campus's dictionary holds
 * (the words an exact lookup finds), `keys` every beginning of every word (the candidate step's
 * keys: a saved search's rarest word may be completed as a prefix), `typoKeys` every word with
 * letters left out (met by the saved searches' typoKeys, decision 0622).
 */
export interface ListingWords {
  all: readonly string[];
  known: ReadonlySet<string>;
  keys: readonly string[];
  typoKeys: readonly string[];
}

export async function listingWords(tx: Tx, postId: string): Promise<ListingWords> {
  const rows = rowsOf<{ word: string; known: boolean }>(
    await tx.execute(sql`
      select w.word, (t.term is not null) as known
      from posts p
      cross join lateral unnest(tsvector_to_array(p.search_tsv)) as w (word)
      left join search_terms t on t.campus_id = p.campus_id and t.term = w.word
      where p.id = ${postId}::uuid`),
  );
  const keys = new Set<string>();
  const typo = new Set<string>();
  for (const { word } of rows) {
    const letters = [...word];
    for (let end = 1; end <= letters.length; end++) keys.add(letters.slice(0, end).join(""));
    // A word within one typo of a rare word of 4 to 6 letters has 3 to 7 letters and shares a
    // form with one letter left out; within two typos of one of 7 or more, it has 5 or more and
    // shares a form of 5 or more letters with up to two left out: so two only from 7 letters.
    if (letters.length >= 3 && letters.length <= TYPO_KEY_MAX_LETTERS + 2) {
      for (const form of deletionForms(word, letters.length >= 7 ? 2 : 1)) typo.add(form);
    }
  }
  return {
    all: rows.map((row) => row.word),
    known: new Set(rows.filter((row) => row.known).map((row) => row.word)),
    keys: [...keys],
    typoKeys: [...typo],
  };
}

/**
 * How a saved search's words stand against one listing, before any dictionary lookup:
 *
 * - `found`: every word is one of the listing's own words and in the dictionary. /search's
 *   expansion of a word always holds the word itself when the dictionary does (its exact row), so
 *   each of the search's term groups holds a word of the listing: the words alone decide the text
 *   half of /search's condition exactly as the full expansion would.
 * - `never`: some word can reach none of the listing's words. Every term /search's expansion adds
 *   to a word is the word, a completion of it (begins with it) or a misspelling within two typos
 *   (typoBudgetBetween is at most 2), so such a word's group holds none of the listing's words
 *   and the search cannot find the listing.
 * - `expand`: anything else goes through the full lookup (expandWordLists), as before.
 *
 * Either shortcut gives the answer the full lookup gives (the property test compares them with
 * /search itself); they only spare the lookup for the words that cannot change it.
 */
export function wordsAgainstListing(
  words: readonly string[],
  listing: ListingWords,
): "found" | "never" | "expand" {
  if (words.length === 0) return "never";
  if (words.every((word) => listing.known.has(word))) return "found";
  const reachable = (word: string) =>
    listing.all.some(
      (term) =>
        term.startsWith(word) || (typoBudgetBetween(word, term) > 0 && typoDistance(word, term, 2) <= 2),
    );
  return words.every(reachable) ? "expand" : "never";
}

/** Longer rare words get no typo keys (decision 0622): the keys grow with the square of the length. */
export const TYPO_KEY_MAX_LETTERS = 24;

/**
 * Decision 0622: a word with up to `deletions` letters left out, itself included (the symmetric
 * deletion rule: two words within k typos, a swap counting as one, share such a form with at most
 * k letters left out of each).
 */
export function deletionForms(word: string, deletions: 1 | 2): string[] {
  const letters = [...word];
  const forms = new Set([word]);
  for (let i = 0; i < letters.length; i++) {
    const once = [...letters.slice(0, i), ...letters.slice(i + 1)];
    forms.add(once.join(""));
    if (deletions === 2) {
      for (let j = i; j < once.length; j++) forms.add([...once.slice(0, j), ...once.slice(j + 1)].join(""));
    }
  }
  return [...forms].sort();
}

/**
 * A saved search's typo keys: /search looks for misspellings of a typed word from 4 letters, one
 * typo up to 6 letters and at most two from 7 (a 7-letter word meets 8-letter terms at two:
 * typoBudgetBetween reads the longer word), so the rare word with that many letters left out.
 */
export function typoKeys(rareWord: string | null): string[] {
  if (rareWord === null) return [];
  const length = [...rareWord].length;
  if (length < 4 || length > TYPO_KEY_MAX_LETTERS) return [];
  return deletionForms(rareWord, length <= 6 ? 1 : 2);
}
