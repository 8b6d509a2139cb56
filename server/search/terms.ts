import { type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { MAX_TERM_LENGTH, typoBudget, typoDistance } from "./text";

/**
 * The per-campus term dictionary (decision 0191): every word of the campus's top-level posts
 * with the number of posts holding it, kept by the trigger posts_search_terms_track. Typed
 * words become exact dictionary terms here, before the full-text query runs, so the posts'
 * index is only ever asked for exact words (never `:*` prefixes, never a similarity scan).
 */

/** Completions of the last word (issue 12 §2: 'the last word typed is a prefix'). */
const PREFIX_TERMS = 8;
/** Spellings a misspelt word may stand for: more for two typos, which leave more neighbours. */
const TYPO_TERMS = { 1: 3, 2: 5 } as const;
/** Candidates read per index range before their distance is computed: bounds the work. */
const CANDIDATES_PER_RANGE = 1000;
/** An exact word also brings its near spellings when they are this much more common (a misspelt post). */
const MUCH_MORE_COMMON = 10;

type TermRow = {
  word: number;
  term: string;
  doc_count: number;
  source: "exact" | "prefix" | "typo";
};

function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function likeInfix(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The index ranges where a word's misspellings live (pigeonhole: k typos leave at least one of
 * k + 1 parts of the word untouched). One typo: the first half is a prefix (btree range) or the
 * second half a suffix (the reverse(term) index). Two typos: the same, or the middle third
 * inside (the trigram index). Each range also bounds the length.
 */
function typoRanges(campusId: string, index: number, word: string): SQL[] {
  const k = typoBudget(word);
  if (k === 0) return [];
  const chars = [...word];
  const n = chars.length;
  const lengths = sql`char_length(term) between ${n - k} and ${n + k}`;
  const base = sql`select ${index}::int as word, term, doc_count, 'typo' as source from search_terms where campus_id = ${campusId}`;
  const out: SQL[] = [];
  if (k === 1) {
    const half = Math.floor(n / 2);
    const head = chars.slice(0, half).join("");
    const tail = chars.slice(half).join("");
    out.push(sql`(${base} and term like ${likePrefix(head)} and ${lengths} limit ${CANDIDATES_PER_RANGE})`);
    out.push(
      sql`(${base} and reverse(term) like ${likePrefix([...tail].reverse().join(""))} and ${lengths} limit ${CANDIDATES_PER_RANGE})`,
    );
    // Two letters swapped across the halves change both: that one spelling is looked up as is.
    const swapped = [...chars];
    [swapped[half - 1], swapped[half]] = [swapped[half] ?? "", swapped[half - 1] ?? ""];
    out.push(sql`(${base} and term = ${swapped.join("")})`);
  } else {
    const middle = Math.max(3, Math.floor(n / 3));
    const headLength = Math.floor((n - middle) / 2);
    const head = chars.slice(0, headLength).join("");
    const mid = chars.slice(headLength, headLength + middle).join("");
    const tail = chars.slice(headLength + middle).join("");
    out.push(sql`(${base} and term like ${likePrefix(head)} and ${lengths} limit ${CANDIDATES_PER_RANGE})`);
    out.push(
      sql`(${base} and reverse(term) like ${likePrefix([...tail].reverse().join(""))} and ${lengths} limit ${CANDIDATES_PER_RANGE})`,
    );
    out.push(sql`(${base} and term like ${likeInfix(mid)} and ${lengths} limit ${CANDIDATES_PER_RANGE})`);
  }
  return out;
}

/**
 * Each typed word as the exact terms it stands for, in one round trip: the word itself when a
 * post holds it; its likeliest spellings within its typo budget (1 from 4 letters, 2 from 8,
 * a swap of two letters counting as one) when none does, or when they are far more common;
 * and, for the last word, the commonest terms it begins (it may be half typed). A word standing
 * for nothing makes the search find nothing (every word must match, as the original's did).
 * Returns null then; otherwise one group of terms per word, each group OR-ed, the groups AND-ed.
 */
export async function expandWords(db: Queryable, campusId: string, words: readonly string[]) {
  if (words.length === 0) return null;
  const parts: SQL[] = [];
  words.forEach((word, index) => {
    if ([...word].length > MAX_TERM_LENGTH) return;
    parts.push(
      sql`(select ${index}::int as word, term, doc_count, 'exact' as source from search_terms where campus_id = ${campusId} and term = ${word})`,
    );
    const last = index === words.length - 1;
    // A lone one-letter word is not completed: every post would match.
    if (last && ([...word].length >= 2 || words.length > 1)) {
      parts.push(
        sql`(select ${index}::int as word, term, doc_count, 'prefix' as source from search_terms where campus_id = ${campusId} and term like ${likePrefix(word)} order by doc_count desc, term limit ${PREFIX_TERMS})`,
      );
    }
    parts.push(...typoRanges(campusId, index, word));
  });
  if (parts.length === 0) return null;
  const result = await db.execute<TermRow>(sql.join(parts, sql` union all `));
  const rows = rowsOf<TermRow>(result);

  const groups: string[][] = [];
  for (const [index, word] of words.entries()) {
    const mine = rows.filter((row) => row.word === index);
    const exact = mine.find((row) => row.source === "exact");
    const group = new Set<string>();
    if (exact) group.add(exact.term);
    const budget = typoBudget(word);
    const typos = new Map<string, { term: string; count: number; distance: number }>();
    for (const row of mine) {
      if (row.source !== "typo" || row.term === word || typos.has(row.term)) continue;
      const distance = typoDistance(word, row.term, budget);
      if (distance <= budget) typos.set(row.term, { term: row.term, count: row.doc_count, distance });
    }
    const likeliest = [...typos.values()]
      .sort((a, b) => a.distance - b.distance || b.count - a.count || a.term.localeCompare(b.term))
      .slice(0, budget === 0 ? 0 : TYPO_TERMS[budget]);
    for (const typo of likeliest) {
      if (!exact || typo.count >= MUCH_MORE_COMMON * exact.doc_count) group.add(typo.term);
    }
    for (const row of mine) if (row.source === "prefix") group.add(row.term);
    if (group.size === 0) return null;
    groups.push([...group]);
  }
  return groups;
}

/** The groups as a tsquery text: `('a' | 'b') & ('c')`. Terms are quoted, so none is read as syntax. */
export function toTsQuery(groups: readonly (readonly string[])[]): string {
  const quote = (term: string) => `'${term.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
  return groups.map((group) => `(${group.map(quote).join(" | ")})`).join(" & ");
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
