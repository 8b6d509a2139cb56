import { and, desc, eq, gte, like, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { searchCounts, searchHistory } from "../db/schema";
import { SEARCH_LIMITS } from "./limits";
import { normaliseSearchText, searchTextKey } from "./text.shared";

/**
 * Search history and popular searches (spec 2 §3 (Search, User search history, Popular
 * search); §7; decision 0192). A signed-in person's search updates their history
 * (text, how many times, when last) and the campus's count for the text (searches, and
 * different people). Popular searches are the texts most people searched, and only texts at
 * least 3 different people searched: one person's typo or phone number never shows to others.
 */

export interface RecentSearch {
  text: string;
  lastModified: Date;
}

export interface PopularSearch {
  text: string;
  /** How many different people searched it. */
  people: number;
}

/**
 * Records one search by a signed-in person on their campus (visitors and other campuses'
 * people leave no trace). Returns false for a text with nothing in it. The history keeps the
 * newest SEARCH_LIMITS.historyPerPerson texts per person and campus.
 */
export async function recordSearch(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { campusId: string; text: string },
): Promise<boolean> {
  if (!viewer || viewer.banned || viewer.campusId !== input.campusId) return false;
  const text = normaliseSearchText(input.text);
  const key = searchTextKey(text);
  if (!key) return false;
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(searchHistory)
      .values({
        userId: viewer.id,
        campusId: input.campusId,
        textKey: key,
        searchText: text,
        createdAt: now,
        lastModified: now,
      })
      .onConflictDoUpdate({
        target: [searchHistory.userId, searchHistory.campusId, searchHistory.textKey],
        set: { searchText: text, searchQty: sql`${searchHistory.searchQty} + 1`, lastModified: now },
      })
      .returning({ searchQty: searchHistory.searchQty });
    // First time this person searched this text: one more different person.
    const newPerson = row?.searchQty === 1 ? 1 : 0;
    await tx
      .insert(searchCounts)
      .values({
        campusId: input.campusId,
        textKey: key,
        searchText: text,
        totalViews: 1,
        uniqueViews: 1,
        createdAt: now,
        lastModified: now,
      })
      .onConflictDoUpdate({
        target: [searchCounts.campusId, searchCounts.textKey],
        set: {
          totalViews: sql`${searchCounts.totalViews} + 1`,
          uniqueViews: sql`${searchCounts.uniqueViews} + ${newPerson}`,
          lastModified: now,
        },
      });
    if (newPerson) await pruneHistory(tx, viewer.id, input.campusId);
  });
  return true;
}

/** Bounds a person's history (a search adds a row only for a new text). */
async function pruneHistory(tx: Queryable, userId: string, campusId: string): Promise<void> {
  await tx.execute(sql`
    delete from search_history
    where user_id = ${userId} and campus_id = ${campusId} and text_key in (
      select text_key from search_history
      where user_id = ${userId} and campus_id = ${campusId}
      order by last_modified desc
      offset ${SEARCH_LIMITS.historyPerPerson}
    )`);
}

/** spec 2 §7 'Recent searches per user ordered lastModified descending' (none for visitors). */
export async function listRecentSearches(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { campusId: string; limit?: number; startingWith?: string },
): Promise<RecentSearch[]> {
  if (!viewer) return [];
  const prefix = input.startingWith ? searchTextKey(input.startingWith) : "";
  const rows = await ctx.db
    .select({ text: searchHistory.searchText, lastModified: searchHistory.lastModified })
    .from(searchHistory)
    .where(
      and(
        eq(searchHistory.userId, viewer.id),
        eq(searchHistory.campusId, input.campusId),
        prefix ? like(searchHistory.textKey, `${escapeLike(prefix)}%`) : undefined,
      ),
    )
    .orderBy(desc(searchHistory.lastModified))
    .limit(Math.min(input.limit ?? SEARCH_LIMITS.recentInDropdown, SEARCH_LIMITS.historyPerPerson));
  return rows;
}

/** 'Recent Search Removed': one text leaves the viewer's history (the campus's counts stay). */
export async function removeRecentSearch(
  ctx: AppContext,
  viewer: Viewer,
  input: { campusId: string; text: string },
): Promise<void> {
  await ctx.db
    .delete(searchHistory)
    .where(
      and(
        eq(searchHistory.userId, viewer.id),
        eq(searchHistory.campusId, input.campusId),
        eq(searchHistory.textKey, searchTextKey(input.text)),
      ),
    );
}

/** 'Search History Cleared': the viewer's history on this campus is emptied. */
export async function clearSearchHistory(
  ctx: AppContext,
  viewer: Viewer,
  input: { campusId: string },
): Promise<void> {
  await ctx.db
    .delete(searchHistory)
    .where(and(eq(searchHistory.userId, viewer.id), eq(searchHistory.campusId, input.campusId)));
}

/**
 * spec 2 §7 popular searches: the campus's texts by how many people searched them (then how
 * often), at most 14, only texts at least 3 people searched. `startingWith` narrows to texts
 * beginning with what is typed (the dropdown).
 */
export async function listPopularSearches(
  ctx: AppContext,
  input: { campusId: string; limit?: number; startingWith?: string },
): Promise<PopularSearch[]> {
  const prefix = input.startingWith ? searchTextKey(input.startingWith) : "";
  return ctx.db
    .select({ text: searchCounts.searchText, people: searchCounts.uniqueViews })
    .from(searchCounts)
    .where(
      and(
        eq(searchCounts.campusId, input.campusId),
        gte(searchCounts.uniqueViews, SEARCH_LIMITS.popularMinPeople),
        prefix ? like(searchCounts.textKey, `${escapeLike(prefix)}%`) : undefined,
      ),
    )
    .orderBy(desc(searchCounts.uniqueViews), desc(searchCounts.totalViews), searchCounts.textKey)
    .limit(Math.min(input.limit ?? SEARCH_LIMITS.popular, SEARCH_LIMITS.popular));
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
