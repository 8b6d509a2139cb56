import { createHash, createHmac } from "node:crypto";
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { isUuid } from "../db/ids";
import {
  SAVED_SEARCH_CADENCES,
  type SavedSearchCadence,
  savedSearches,
  searchTerms,
  user,
} from "../db/schema";
import { DomainError, statusOf } from "../errors.shared";
import { requireParticipant } from "../posts/access";
import { DEFAULT_SEARCH_FILTERS, type SearchFilters, searchHref } from "./filters.shared";
import { readSearchFilters } from "./read-filters";
import { typoKeys } from "./saved-search-listing-words";
import {
  SAVED_SEARCH_LIMIT,
  SAVED_SEARCH_MESSAGES,
  SAVED_SEARCH_NAME_MAX,
  SAVED_SEARCH_QUERY_MAX,
} from "./saved-search-rules.shared";
import { normaliseSearchText, searchTextKey, searchWords } from "./text.shared";

/**
 * Decision 0620: a student's saved searches. A saved search is the search address's own query
 * string, read by the same parser as /search (normaliseSearchText, readSearchFilters), so what it
 * matches is what /search shows for it. Only ever the student's own: every function finds the row
 * by its id and the viewer's id together, and any other id is 'not found'.
 */

export type SavedSearchErrorCode = "invalid-input" | "not-found" | "limit";

export class SavedSearchError extends DomainError<SavedSearchErrorCode> {
  constructor(code: SavedSearchErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code, { limit: 409 }), field });
    this.name = "SavedSearchError";
  }
}

/** The search a query string stands for, in its stored (canonical) and comparison forms. */
export interface CanonicalSearch {
  q: string;
  filters: SearchFilters;
  /** The query string /search is opened with (`q=…&category=…`), sort included. */
  query: string;
  /** The same search whatever its letter case, order of parameters or sort. */
  queryKey: string;
}

/** Reads a search address's query string (with or without its leading '?') as /search does. */
export function canonicalSearch(rawQuery: string): CanonicalSearch {
  const params = new URLSearchParams(rawQuery.slice(0, SAVED_SEARCH_QUERY_MAX * 2).replace(/^\?/, ""));
  const q = normaliseSearchText(params.get("q"));
  const filters = readSearchFilters(params);
  const query = searchHref(q, "latest", filters).slice("/search?".length);
  const queryKey = searchHref(searchTextKey(q), "latest", {
    ...filters,
    sort: DEFAULT_SEARCH_FILTERS.sort,
  }).slice("/search?".length);
  return { q, filters, query, queryKey };
}

/** The one-click unsubscribe token of a saved search: per search, unguessable without the app's secret. */
export function savedSearchUnsubscribeToken(ctx: AppContext, savedSearchId: string): string {
  return createHmac("sha256", ctx.config.unsubscribeSecret)
    .update(`saved-search-unsubscribe\u0000${savedSearchId}`)
    .digest("base64url");
}

function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The viewer who may save searches: signed in, set up and on the campus they search (the save's gate). */
function requireSaver(ctx: AppContext, viewer: Viewer | null, campusId?: string): Viewer {
  const saver = requireParticipant(viewer, "like", ctx.clock.now());
  if (campusId !== undefined && saver.campusId !== campusId) {
    throw new SavedSearchError("not-found", SAVED_SEARCH_MESSAGES.notFound);
  }
  return saver;
}

/**
 * The word of the query with the fewest listings on the campus (the matcher's candidate step,
 * decision 0620); a word no listing has yet is the rarest of all. Null without words.
 */
async function rarestWord(tx: Tx, campusId: string, q: string): Promise<string | null> {
  const words = [...new Set(searchWords(q))];
  if (words.length === 0) return null;
  const counted = await tx
    .select({ term: searchTerms.term, docCount: searchTerms.docCount })
    .from(searchTerms)
    .where(and(eq(searchTerms.campusId, campusId), inArray(searchTerms.term, words)));
  const counts = new Map(counted.map((row) => [row.term, row.docCount]));
  return (
    [...words].sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || b.length - a.length)[0] ?? null
  );
}

/**
 * 'Save search' on /search: saves the address's search for the viewer, named after its text unless
 * named. The same search saved again answers the one already saved (`created: false`); a 21st is
 * refused ('You can save up to 20 searches'). The count is taken under the student's row lock, so
 * two saves at once cannot both be the 20th.
 */
export async function saveSearch(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { campusId: string; query: string; name?: string | null },
): Promise<{ id: string; created: boolean }> {
  const saver = requireSaver(ctx, viewer, input.campusId);
  const search = canonicalSearch(input.query);
  if (!search.q) throw new SavedSearchError("invalid-input", SAVED_SEARCH_MESSAGES.noText);
  const name = readName(input.name ?? search.q);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${user} where ${user.id} = ${saver.id} for update`);
    const [existing] = await tx
      .select({ id: savedSearches.id })
      .from(savedSearches)
      .where(and(eq(savedSearches.userId, saver.id), eq(savedSearches.queryKey, search.queryKey)))
      .limit(1);
    if (existing) return { id: existing.id, created: false };
    const [saved] = await tx
      .select({ n: count() })
      .from(savedSearches)
      .where(eq(savedSearches.userId, saver.id));
    if ((saved?.n ?? 0) >= SAVED_SEARCH_LIMIT)
      throw new SavedSearchError("limit", SAVED_SEARCH_MESSAGES.limit);
    const id = crypto.randomUUID();
    const rareWord = await rarestWord(tx, input.campusId, search.q);
    await tx.insert(savedSearches).values({
      id,
      campusId: input.campusId,
      userId: saver.id,
      name,
      query: search.query,
      queryKey: search.queryKey,
      rareWord,
      typoKeys: typoKeys(rareWord),
      category: search.filters.category,
      minPriceCents: search.filters.minPriceCents,
      maxPriceCents: search.filters.maxPriceCents,
      unsubscribeTokenHash: tokenHash(savedSearchUnsubscribeToken(ctx, id)),
      createdAt: now,
      openedAt: now,
    });
    return { id, created: true };
  });
}

function readName(raw: string): string {
  const name = normaliseSearchText(raw.slice(0, SAVED_SEARCH_NAME_MAX * 4).replace(/\s+/g, " "));
  if (!name) throw new SavedSearchError("invalid-input", SAVED_SEARCH_MESSAGES.nameRequired, "name");
  if ([...raw.trim()].length > SAVED_SEARCH_NAME_MAX) {
    throw new SavedSearchError("invalid-input", SAVED_SEARCH_MESSAGES.nameTooLong, "name");
  }
  return name;
}

export interface SavedSearchView {
  id: string;
  name: string;
  /** The query string to open /search with. */
  query: string;
  q: string;
  filters: SearchFilters;
  cadence: SavedSearchCadence;
  /** Listings delivered to it since the student last opened it. */
  newMatches: number;
  createdAt: Date;
}

/** /settings/searches: the viewer's saved searches, newest first (at most SAVED_SEARCH_LIMIT). */
export async function listSavedSearches(ctx: AppContext, viewer: Viewer | null): Promise<SavedSearchView[]> {
  const saver = requireSaver(ctx, viewer);
  const rows = await ctx.db
    .select({
      id: savedSearches.id,
      name: savedSearches.name,
      query: savedSearches.query,
      cadence: savedSearches.cadence,
      createdAt: savedSearches.createdAt,
      newMatches: sql<number>`(
        select count(*)::int from saved_search_hits h
        where h.saved_search_id = ${savedSearches.id} and h.created_at > ${savedSearches.openedAt}
      )`,
    })
    .from(savedSearches)
    .where(eq(savedSearches.userId, saver.id))
    .orderBy(desc(savedSearches.createdAt), asc(savedSearches.id))
    .limit(SAVED_SEARCH_LIMIT);
  return rows.map((row) => {
    const search = canonicalSearch(row.query);
    return { ...row, q: search.q, filters: search.filters, newMatches: Number(row.newMatches) };
  });
}

/** The viewer's own saved search by id, or 'not found' whatever id is sent. */
async function ownSavedSearchId(ctx: AppContext, saver: Viewer, id: string): Promise<string> {
  if (!isUuid(id)) throw new SavedSearchError("not-found", SAVED_SEARCH_MESSAGES.notFound);
  const [row] = await ctx.db
    .select({ id: savedSearches.id })
    .from(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, saver.id)))
    .limit(1);
  if (!row) throw new SavedSearchError("not-found", SAVED_SEARCH_MESSAGES.notFound);
  return row.id;
}

export async function renameSavedSearch(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { id: string; name: string },
): Promise<void> {
  const saver = requireSaver(ctx, viewer);
  const id = await ownSavedSearchId(ctx, saver, input.id);
  await ctx.db
    .update(savedSearches)
    .set({ name: readName(input.name) })
    .where(eq(savedSearches.id, id));
}

const cadenceSchema = z.enum(SAVED_SEARCH_CADENCES);

export async function setSavedSearchCadence(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { id: string; cadence: string },
): Promise<void> {
  const saver = requireSaver(ctx, viewer);
  const cadence = cadenceSchema.safeParse(input.cadence);
  if (!cadence.success)
    throw new SavedSearchError("invalid-input", SAVED_SEARCH_MESSAGES.badCadence, "cadence");
  const id = await ownSavedSearchId(ctx, saver, input.id);
  await ctx.db.update(savedSearches).set({ cadence: cadence.data }).where(eq(savedSearches.id, id));
}

export async function deleteSavedSearch(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { id: string },
): Promise<void> {
  const saver = requireSaver(ctx, viewer);
  const id = await ownSavedSearchId(ctx, saver, input.id);
  await ctx.db.delete(savedSearches).where(eq(savedSearches.id, id));
}

/**
 * Opening a saved search from /settings/searches: the moment it was last opened (so /search can
 * mark the listings delivered since as new) and its query, which carries that moment as `since`
 * (decision 0621: /search marks the viewer's own hits of this search newer than it); from now on
 * those are no longer new.
 */
export async function openSavedSearch(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { id: string },
): Promise<{ query: string; since: Date }> {
  const saver = requireSaver(ctx, viewer);
  const id = await ownSavedSearchId(ctx, saver, input.id);
  const [before] = await ctx.db
    .select({ query: savedSearches.query, openedAt: savedSearches.openedAt })
    .from(savedSearches)
    .where(eq(savedSearches.id, id));
  await ctx.db.update(savedSearches).set({ openedAt: ctx.clock.now() }).where(eq(savedSearches.id, id));
  if (!before) throw new SavedSearchError("not-found", SAVED_SEARCH_MESSAGES.notFound);
  const since = new URLSearchParams({ since: before.openedAt.toISOString() }).toString();
  return { query: `${before.query}&${since}`, since: before.openedAt };
}

/**
 * The one-click unsubscribe of one saved search (RFC 8058's POST; a GET changes nothing): its
 * alerts go Off. False when the token names no search.
 */
export async function unsubscribeSavedSearch(ctx: AppContext, token: string): Promise<boolean> {
  if (token.length === 0 || token.length > 200) return false;
  const updated = await ctx.db
    .update(savedSearches)
    .set({ cadence: "off" })
    .where(eq(savedSearches.unsubscribeTokenHash, tokenHash(token)))
    .returning({ id: savedSearches.id });
  return updated.length > 0;
}

/**
 * The saved search a one-click token names (its confirmation page, which changes nothing), or
 * null for any other token.
 */
export async function findSavedSearchByUnsubscribeToken(
  ctx: AppContext,
  token: string,
): Promise<{ id: string; name: string; cadence: SavedSearchCadence } | null> {
  if (token.length === 0 || token.length > 200) return null;
  const [row] = await ctx.db
    .select({ id: savedSearches.id, name: savedSearches.name, cadence: savedSearches.cadence })
    .from(savedSearches)
    .where(eq(savedSearches.unsubscribeTokenHash, tokenHash(token)))
    .limit(1);
  return row ?? null;
}

/** The viewer's saved search of this address, if any (the search page's 'Saved' state). */
export async function findSavedSearch(
  ctx: AppContext,
  viewer: Viewer,
  rawQuery: string,
): Promise<{ id: string; name: string } | null> {
  const { q, queryKey } = canonicalSearch(rawQuery);
  if (!q) return null;
  const [row] = await ctx.db
    .select({ id: savedSearches.id, name: savedSearches.name })
    .from(savedSearches)
    .where(and(eq(savedSearches.userId, viewer.id), eq(savedSearches.queryKey, queryKey)))
    .limit(1);
  return row ?? null;
}
