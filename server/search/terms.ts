import { type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { MAX_TERM_LENGTH, typoBudgetBetween, typoDistance } from "./text.shared";

/**
 * The per-campus term dictionary (decision 0191): every word of the campus's top-level posts
 * with the number of posts holding it, kept by the trigger posts_search_terms_track. Typed
 * words become exact dictionary terms here, before the full-text query runs, so the posts'
 * index is only ever asked for exact words (never `:*` prefixes, never a similarity scan).
 */

/** Completions of the last word (decision 0191: 'the last word typed is a prefix'). */
const PREFIX_TERMS = 8;
/**
 * Spellings a misspelt word may stand for (decision 0310): every one at the smallest distance
 * found, up to TYPO_TERMS_MAX, and farther ones until there are TYPO_TERMS_MIN (TYPO_TERMS_MAX
 * when other words are typed beside it). A long word with
 * two typos is often as near to several commoner words of the campus as to its own, so none of
 * them is dropped for being rarer; every word must match, so a wrong spelling finds nothing
 * beside the other words typed.
 */
const TYPO_TERMS_MIN = 8;
const TYPO_TERMS_MAX = 16;
/** Dictionary entries read per index range at most, before their distance is checked: bounds the work. */
const RANGE_ROWS = 3000;
/** An exact word also brings its near spellings when they are this much more common (a misspelt post). */
const MUCH_MORE_COMMON = 10;

type TermRow = {
  word: number;
  term: string;
  doc_count: number;
  source: "exact" | "prefix" | "typo";
};

/** One typed word as the terms it stands for, and how many posts hold one of them at most. */
export interface TermGroup {
  terms: string[];
  /** The sum of the terms' post counts: an upper bound of the posts this word matches. */
  posts: number;
}

function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function likeInfix(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The typos the index ranges of a typed word must cover: 2 from 7 letters (a letter may be missing), 1 from 4. */
function rangeBudget(word: string): 0 | 1 | 2 {
  const length = [...word].length;
  if (length >= 7) return 2;
  if (length >= 4) return 1;
  return 0;
}

/**
 * The index ranges where a word's misspellings live, by the pigeonhole rule: k typos leave at
 * least one of k + 1 parts of the word untouched. One typo: the first half is a prefix (btree
 * range) or the second half a suffix (the reverse(term) index), and a swap across the halves is
 * looked up as is. Two typos: the word is cut into a head, a middle and a tail with one letter
 * left out between each, so a swap (one typo, two letters) never touches two parts; the head is
 * a prefix, the tail a suffix, the middle (kept at 4 letters or more where the word allows, so
 * the trigram index answers few rows) an infix. Each range is length-bounded, reads at most
 * RANGE_ROWS entries and keeps those within plain edit distance 2k (fuzzystrmatch, in the
 * database: a swap is 2 there), so only near spellings travel back; their true distance is
 * computed here. `gate` says when the range runs at all (see expandWords).
 */
function typoRanges(campusId: string, index: number, word: string, k: 1 | 2, gate: SQL): SQL[] {
  const chars = [...word];
  const n = chars.length;
  const range = (condition: SQL) =>
    sql`(select ${index}::int as word, term, doc_count, 'typo' as source from (select term, doc_count from search_terms where campus_id = ${campusId} and ${condition} and char_length(term) between ${n - k} and ${n + k} and ${gate} limit ${RANGE_ROWS}) r where levenshtein_less_equal(term, ${word}, ${2 * k}) <= ${2 * k})`;
  const prefix = (part: string[]) => range(sql`term like ${likePrefix(part.join(""))}`);
  const suffix = (part: string[]) =>
    range(sql`reverse(term) like ${likePrefix([...part].reverse().join(""))}`);
  if (k === 1) {
    const half = Math.floor(n / 2);
    const swapped = [...chars];
    [swapped[half - 1], swapped[half]] = [swapped[half] ?? "", swapped[half - 1] ?? ""];
    return [
      prefix(chars.slice(0, half)),
      suffix(chars.slice(half)),
      sql`(select ${index}::int as word, term, doc_count, 'typo' as source from search_terms where campus_id = ${campusId} and term = ${swapped.join("")} and ${gate})`,
    ];
  }
  const parts = n - 2;
  const side = Math.max(1, Math.floor((parts - 4) / 2));
  const middle = parts - 2 * side;
  return [
    prefix(chars.slice(0, side)),
    suffix(chars.slice(n - side)),
    range(sql`term like ${likeInfix(chars.slice(side + 1, side + 1 + middle).join(""))}`),
  ];
}

/**
 * Each typed word as the exact terms it stands for, in one statement: the word itself when a
 * post holds it; its likeliest spellings within the typo budget (1 from 4 letters, 2 from 8, a
 * swap of two letters counting as one, decision 0310) when none does, or when they are far more
 * common; and, for the last word, the commonest terms it begins (it may be half typed). The
 * two-typo ranges run only for a word the dictionary lacks (a one-time filter in the statement),
 * the one-typo ranges of a long word only for one it has. A word standing for nothing makes the
 * search find nothing (every word must match, as the original's did): null then; otherwise one
 * group of terms per word, each group OR-ed, the groups AND-ed.
 */
export async function expandWords(
  db: Queryable,
  campusId: string,
  words: readonly string[],
): Promise<TermGroup[] | null> {
  const lookup = termLookupQuery(campusId, words);
  if (!lookup) return null;
  return groupTerms(words, rowsOf<TermRow>(await db.execute<TermRow>(lookup)));
}

/** The one statement of expandWords: every word's exact row, completions and typo ranges (the bench EXPLAINs it). */
export function termLookupQuery(campusId: string, words: readonly string[]): SQL | null {
  const parts: SQL[] = [];
  words.forEach((word, index) => {
    parts.push(...wordLookupParts(campusId, index, word, completesLastWord(words, index)));
  });
  return parts.length === 0 ? null : sql.join(parts, sql` union all `);
}

/** Whether the word at `index` is completed as a prefix: the last word, unless it is a lone one-letter word. */
function completesLastWord(words: readonly string[], index: number): boolean {
  const word = words[index] ?? "";
  // A lone one-letter word is not completed: every post would match.
  return index === words.length - 1 && ([...word].length >= 2 || words.length > 1);
}

/** One typed word's parts of the lookup: its exact row, its completions (when asked) and its typo ranges. */
function wordLookupParts(campusId: string, index: number, word: string, completed: boolean): SQL[] {
  if ([...word].length > MAX_TERM_LENGTH) return [];
  const parts: SQL[] = [
    sql`(select ${index}::int as word, term, doc_count, 'exact' as source from search_terms where campus_id = ${campusId} and term = ${word})`,
  ];
  if (completed) {
    parts.push(
      sql`(select ${index}::int as word, term, doc_count, 'prefix' as source from search_terms where campus_id = ${campusId} and term like ${likePrefix(word)} order by doc_count desc, term limit ${PREFIX_TERMS})`,
    );
  }
  const exists = sql`exists (select 1 from search_terms where campus_id = ${campusId} and term = ${word})`;
  const budget = rangeBudget(word);
  if (budget === 1) parts.push(...typoRanges(campusId, index, word, 1, sql`true`));
  if (budget === 2) {
    parts.push(...typoRanges(campusId, index, word, 2, sql`not ${exists}`));
    parts.push(...typoRanges(campusId, index, word, 1, exists));
  }
  return parts;
}

/**
 * expandWords for many searches of one campus at once (decision 0621: the saved-search matcher
 * checks a batch of searches against one listing): one statement for the distinct words of them
 * all, each word's rows asked once, then each search's groups made by the same groupTerms as
 * expandWords, so each answer is exactly what expandWords answers for that search alone.
 */
export async function expandWordLists(
  db: Queryable,
  campusId: string,
  lists: readonly (readonly string[])[],
): Promise<(TermGroup[] | null)[]> {
  const distinct = new Map<string, number>();
  const completed = new Set<string>();
  for (const words of lists) {
    words.forEach((word, index) => {
      if (!distinct.has(word)) distinct.set(word, distinct.size);
      if (completesLastWord(words, index)) completed.add(word);
    });
  }
  const parts = [...distinct].flatMap(([word, index]) =>
    wordLookupParts(campusId, index, word, completed.has(word)),
  );
  const rows =
    parts.length === 0 ? [] : rowsOf<TermRow>(await db.execute<TermRow>(sql.join(parts, sql` union all `)));
  const byWord = new Map<number, TermRow[]>();
  for (const row of rows) {
    const list = byWord.get(row.word);
    if (list) list.push(row);
    else byWord.set(row.word, [row]);
  }
  return lists.map((words) =>
    words.length === 0
      ? null
      : groupTerms(
          words,
          words.flatMap((word, index) =>
            (byWord.get(distinct.get(word) ?? -1) ?? [])
              .filter((row) => row.source !== "prefix" || completesLastWord(words, index))
              .map((row) => ({ ...row, word: index })),
          ),
        ),
  );
}

function groupTerms(words: readonly string[], rows: TermRow[]): TermGroup[] | null {
  const groups: TermGroup[] = [];
  for (const [index, word] of words.entries()) {
    const mine = rows.filter((row) => row.word === index);
    const exact = mine.find((row) => row.source === "exact");
    const group = new Map<string, number>();
    if (exact) group.set(exact.term, exact.doc_count);
    const typos = new Map<string, { term: string; count: number; distance: number }>();
    for (const row of mine) {
      if (row.source !== "typo" || row.term === word || typos.has(row.term)) continue;
      // Beside an exact word only one typo is looked for (the misspelt-post rule).
      const budget = exact
        ? Math.min(1, typoBudgetBetween(word, row.term))
        : typoBudgetBetween(word, row.term);
      if (budget === 0) continue;
      const distance = typoDistance(word, row.term, budget);
      if (distance <= budget) typos.set(row.term, { term: row.term, count: row.doc_count, distance });
    }
    const ranked = [...typos.values()].sort(
      (a, b) => a.distance - b.distance || b.count - a.count || a.term.localeCompare(b.term),
    );
    const nearest = ranked[0]?.distance;
    // Beside other words a wrong spelling finds nothing, so more of them may come along.
    const fill = words.length > 1 ? TYPO_TERMS_MAX : TYPO_TERMS_MIN;
    const kept = ranked.filter((typo, i) => typo.distance === nearest || i < fill).slice(0, TYPO_TERMS_MAX);
    for (const typo of kept) {
      if (!exact || typo.count >= MUCH_MORE_COMMON * exact.doc_count) group.set(typo.term, typo.count);
    }
    for (const row of mine) if (row.source === "prefix") group.set(row.term, row.doc_count);
    if (group.size === 0) return null;
    let posts = 0;
    for (const count of group.values()) posts += count;
    groups.push({ terms: [...group.keys()], posts });
  }
  return groups;
}

/** The groups as a tsquery text: `('a' | 'b') & ('c')`. Terms are quoted, so none is read as syntax. */
export function toTsQuery(groups: readonly TermGroup[]): string {
  const quote = (term: string) => `'${term.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
  return groups.map((group) => `(${group.terms.map(quote).join(" | ")})`).join(" & ");
}

/**
 * Recounts the dictionary of one campus, or of every campus, from the posts (decision 0191):
 * for a repair after a bulk import or a change to how posts are split into words. Writers of
 * posts wait meanwhile (SHARE lock), so no post is counted twice or missed.
 */
export async function rebuildSearchTerms(db: Queryable, campusId: string | null = null): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table posts in share mode`);
    await tx.execute(
      campusId === null
        ? sql`delete from search_terms`
        : sql`delete from search_terms where campus_id = ${campusId}`,
    );
    const result = await tx.execute<{ terms: number }>(sql`
      with inserted as (
        insert into search_terms (campus_id, term, doc_count)
        select p.campus_id, w.lexeme, count(*)::integer
        from posts p cross join lateral unnest(p.search_tsv) as w
        where p.parent_id is null and char_length(w.lexeme) <= ${MAX_TERM_LENGTH}
          and (${campusId}::text is null or p.campus_id = ${campusId}::text)
        group by p.campus_id, w.lexeme
        returning 1
      )
      select count(*)::integer as terms from inserted`);
    return rowsOf<{ terms: number }>(result)[0]?.terms ?? 0;
  });
}

/** The rows of `db.execute` on either driver (both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
