import { sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { requireReadableCampus } from "../posts/access";
import { escapeLike, listPopularSearches, listRecentSearches, type RecentSearch } from "./history";
import { SEARCH_LIMITS } from "./limits";
import { type PersonHit, searchPeople } from "./people";
import { rowsOf } from "./terms";
import { normaliseSearchText, searchWords } from "./text.shared";

/**
 * The header search box's dropdown (spec 1 §2 'Search box dropdown', spec 2 §2; decision 0194):
 * with nothing typed, the campus's popular searches (first 4) and 'My Recent'; as the person
 * types, popular searches and their own recent ones beginning with the text, the text with its
 * last word completed from the campus's words, and people.
 */
export interface SearchSuggestions {
  text: string;
  popular: string[];
  recent: RecentSearch[];
  /** Whole search texts: what is typed with its last word completed. */
  completions: string[];
  people: PersonHit[];
}

export async function getSearchSuggestions(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { campusId: string; text: string },
): Promise<SearchSuggestions> {
  const campus = requireReadableCampus(ctx, viewer, input.campusId);
  const text = normaliseSearchText(input.text);
  if (!text) {
    const [popular, recent] = await Promise.all([
      listPopularSearches(ctx, { campusId: campus.id, limit: SEARCH_LIMITS.popularInDropdown }),
      listRecentSearches(ctx, viewer, { campusId: campus.id }),
    ]);
    return { text, popular: popular.map((p) => p.text), recent, completions: [], people: [] };
  }
  const words = searchWords(text);
  const last = words[words.length - 1];
  const [popular, recent, completions, people] = await Promise.all([
    listPopularSearches(ctx, {
      campusId: campus.id,
      limit: SEARCH_LIMITS.popularInDropdown,
      startingWith: text,
    }),
    listRecentSearches(ctx, viewer, { campusId: campus.id, startingWith: text, limit: 3 }),
    last ? completeLastWord(ctx, campus.id, text, last) : Promise.resolve([]),
    searchPeople(ctx, viewer, { campusId: campus.id, text, limit: SEARCH_LIMITS.peopleInDropdown }),
  ]);
  const popularTexts = popular.map((p) => p.text);
  const shown = new Set([...popularTexts, ...recent.map((r) => r.text)].map((t) => t.toLowerCase()));
  return {
    text,
    popular: popularTexts,
    recent,
    completions: completions.filter((c) => !shown.has(c.toLowerCase())),
    people: people.items,
  };
}

/** The typed text with its last word completed by the campus's commonest words starting with it. */
async function completeLastWord(
  ctx: AppContext,
  campusId: string,
  text: string,
  last: string,
): Promise<string[]> {
  const result = await ctx.db.execute<{ term: string }>(sql`
    select term from search_terms
    where campus_id = ${campusId} and term like ${`${escapeLike(last)}%`}
    order by doc_count desc, term
    limit ${SEARCH_LIMITS.termsInDropdown}`);
  // The text up to where its last word starts, as typed (its own spelling and spacing).
  const at = text.toLowerCase().lastIndexOf(last);
  const head = at >= 0 ? text.slice(0, at) : `${text} `;
  return rowsOf<{ term: string }>(result).map((row) => `${head}${row.term}`);
}
