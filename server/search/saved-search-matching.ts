import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { savedSearchHits, savedSearchMatchQueue } from "../db/schema";
import { visibilityNow } from "../moderation/visibility";
import type { SearchFilters } from "./filters.shared";
import { applicableFilters } from "./listing";
import { postSearchTextConditions, postSearchViewerConditions } from "./posts";
import { type ListingWords, listingWords, wordsAgainstListing } from "./saved-search-listing-words";
import { tellInstantMatches } from "./saved-search-matching-notices";
import { canonicalSearch } from "./saved-searches";
import { expandWordLists, rowsOf, type TermGroup, toTsQuery } from "./terms";
import { normaliseSearchText, searchWords } from "./text.shared";

/**
 * Decision 0621: matching a new listing against its campus's saved searches, in a job after the
 * commit that queued it (saved-search-matching-queue.ts). Two steps:
 *
 * 1. Candidates, through decision 0620's partial indexes: the searches whose rarest word is one
 *    of the listing's words or begins one of them (the last word typed is completed as a
 *    prefix) or whose typo keys meet the listing's words with letters left out (decision 0622:
 *    /search forgives misspellings), and the searches without words whose category and price
 *    bounds admit the listing.
 *    Never the listing's author's own, never another campus's, never an alert turned Off.
 * 2. The real check: each candidate's query string replayed through /search's parser, its words
 *    expanded by the same dictionary lookup (expandWordLists = expandWords for many), and the
 *    listing tested against the same condition /search's page reads (postSearchConditions) for
 *    the search's student: blocks either way, hidden, removed and suspended authors' listings
 *    are left out there, exactly as /search leaves them out.
 *    The listing's own words spare the lookup where they settle a search (decision 0622).
 *
 * Bounded: a batch is at most SEARCHES_PER_BATCH candidates, in id order from the queue row's
 * after_id, each batch one transaction that writes its hits (once: the hits' primary key), the
 * instant notices of the hits it wrote and the next after_id; a run is at most BATCHES_PER_RUN
 * batches. A run killed anywhere leaves the last committed batch's state, and the next run goes on
 * from there without telling anyone twice.
 */

/** Candidate searches checked in one transaction. */
export const SEARCHES_PER_BATCH = 2500;
/** Batches one run of the job does at most before it yields (it asks to run again at once). */
const BATCHES_PER_RUN = 25;
/** Queued listings one run reads. */
const LISTINGS_PER_RUN = 20;

interface Listing {
  id: string;
  campusId: string;
  authorId: string;
}

type QueuedListing = Listing & { category: string | null; priceCents: number | null };

export interface CandidateSearch {
  id: string;
  userId: string;
  query: string;
  cadence: "instant" | "daily";
  /** The student wants e-mail for what they saved (the master switch and the 'saves' kind). */
  wantsMail: boolean;
  lastInstantMailAt: string | null;
}

/**
 * Step 1: the campus's saved searches after `afterId` (id order) that may match the listing.
 * The listing's words come from its own search vector (listingWords), so they are the words
 * /search indexed.
 */
async function candidateSearches(
  tx: Tx,
  listing: QueuedListing,
  words: ListingWords,
  afterId: string | null,
  limit: number,
): Promise<CandidateSearch[]> {
  return rowsOf<CandidateSearch>(
    await tx.execute(sql`
      with candidate as (
        select s.id, s.user_id, s.query, s.cadence, s.last_instant_mail_at
        from saved_searches s
        where s.campus_id = ${listing.campusId} and s.cadence <> 'off' and s.rare_word is not null
          -- Arrays the planner reads as index conditions (a subquery it guesses at scans all).
          and (s.rare_word = any(array(select json_array_elements_text(${JSON.stringify(words.keys)}::json)))
            or s.typo_keys && array(select json_array_elements_text(${JSON.stringify(words.typoKeys)}::json)))
        union all
        select s.id, s.user_id, s.query, s.cadence, s.last_instant_mail_at
        from saved_searches s
        where s.campus_id = ${listing.campusId} and s.cadence <> 'off' and s.rare_word is null
          and (s.category is null or s.category = ${listing.category}::text)
          and (s.min_price_cents is null or s.min_price_cents <= ${listing.priceCents}::integer)
          and (s.max_price_cents is null or s.max_price_cents >= ${listing.priceCents}::integer)
      )
      select c.id, c.user_id as "userId", c.query, c.cadence,
        (u.email_notifications and coalesce(ns.email_saves, true)) as "wantsMail",
        c.last_instant_mail_at::text as "lastInstantMailAt"
      from candidate c
      join "user" u on u.id = c.user_id
      left join notification_settings ns on ns.user_id = u.id
      where c.user_id <> ${listing.authorId}
        -- A saved search never reaches another campus's listings, whatever its student became.
        and u.campus_id = ${listing.campusId}
        and (${afterId}::uuid is null or c.id > ${afterId}::uuid)
      order by c.id
      limit ${limit}`),
  );
}

/**
 * Step 2: the candidates whose search, replayed as /search runs it for their student, finds the
 * listing: /search's condition (postSearchConditions) is what the search asks AND what its viewer
 * may see, and both halves are the same builders /search uses, each evaluated on the listing's
 * row in one statement for the whole batch: the searches' halves per distinct filters, their
 * tsqueries a list beside them; the viewers' halves with the students a list. One statement more
 * for the words of them all (expandWordLists).
 */
export async function matchingSearches(
  ctx: AppContext,
  tx: Tx,
  listing: Listing,
  candidates: readonly CandidateSearch[],
  words: ListingWords,
): Promise<CandidateSearch[]> {
  if (candidates.length === 0) return [];
  // Many students save the same search: each distinct query string is read once.
  const read = new Map<
    string,
    { words: string[]; plan: ReturnType<typeof wordsAgainstListing>; filters: SearchFilters }
  >();
  const searches = candidates.map((candidate) => {
    let known = read.get(candidate.query);
    if (!known) {
      const { q, filters } = canonicalSearch(candidate.query);
      const asked = searchWords(normaliseSearchText(q));
      known = { words: asked, plan: wordsAgainstListing(asked, words), filters: applicableFilters(filters) };
      read.set(candidate.query, known);
    }
    return { candidate, ...known };
  });
  // Only the searches the listing's words cannot settle are looked up in the dictionary.
  const looked = searches.flatMap((search, index) => (search.plan === "expand" ? [index] : []));
  const expanded = await expandWordLists(
    tx,
    listing.campusId,
    looked.map((index) => searches[index]?.words ?? []),
  );
  const groups = new Map<number, TermGroup[] | null>(looked.map((index, i) => [index, expanded[i] ?? null]));
  searches.forEach((search, index) => {
    if (search.plan === "found")
      groups.set(
        index,
        search.words.map((word) => ({ terms: [word], posts: 0 })),
      );
  });
  // Searches with the same filters share one condition; their tsqueries are its list.
  const byFilters = new Map<string, { filters: SearchFilters; tsqueries: Map<string, number[]> }>();
  searches.forEach((search, index) => {
    const found = groups.get(index);
    if (!found) return;
    const key = JSON.stringify(search.filters);
    const group = byFilters.get(key) ?? { filters: search.filters, tsqueries: new Map<string, number[]>() };
    byFilters.set(key, group);
    const tsquery = toTsQuery(found);
    group.tsqueries.set(tsquery, [...(group.tsqueries.get(tsquery) ?? []), index]);
  });
  if (byFilters.size === 0) return [];
  // One row per (filters, tsquery): the searches it stands for.
  const rowSearches: number[][] = [];
  // The lists travel as one JSON parameter each, not one parameter a row (hundreds a batch).
  const parts = [...byFilters.values()].map((group) => {
    const rows = [...group.tsqueries].map(([tsquery, indices]) => {
      rowSearches.push(indices);
      return { i: rowSearches.length - 1, tsquery };
    });
    const condition = postSearchTextConditions({
      campusId: listing.campusId,
      tsquery: sql`v.tsquery`,
      show: "latest",
      filters: group.filters,
    });
    return sql`(select v.i from json_to_recordset(${JSON.stringify(rows)}::json) as v (i int, tsquery text)
      join posts on posts.id = ${listing.id}::uuid where ${condition})`;
  });
  const asked = rowsOf<{ i: number }>(await tx.execute(sql.join(parts, sql` union all `)));
  const textMatched = new Set(asked.flatMap((row) => rowSearches[row.i] ?? []));
  if (textMatched.size === 0) return [];
  const viewers = [...new Set([...textMatched].map((index) => searches[index]?.candidate.userId ?? ""))];
  const seen = rowsOf<{ id: string }>(
    await tx.execute(sql`
      select v.id from json_array_elements_text(${JSON.stringify(viewers)}::json) as v (id)
      join posts on posts.id = ${listing.id}::uuid
      where ${postSearchViewerConditions(sql`v.id`, visibilityNow(ctx.clock.now()))}`),
  );
  const allowed = new Set(seen.map((row) => row.id));
  return [...textMatched]
    .sort((a, b) => a - b)
    .flatMap((index) => {
      const search = searches[index];
      return search && allowed.has(search.candidate.userId) ? [search.candidate] : [];
    });
}

/**
 * Both steps for one batch, reading only: the candidates after `afterId` (the batch's extent,
 * whatever matched) and those whose search finds the listing. The matching benchmark times this
 * apart from the writes that follow (hits and notices).
 */
export async function findMatches(
  ctx: AppContext,
  tx: Tx,
  listing: QueuedListing,
  afterId: string | null,
  limit = SEARCHES_PER_BATCH,
): Promise<{ candidates: CandidateSearch[]; matched: CandidateSearch[] }> {
  const words = await listingWords(tx, listing.id);
  const candidates = await candidateSearches(tx, listing, words, afterId, limit);
  return { candidates, matched: await matchingSearches(ctx, tx, listing, candidates, words) };
}

/**
 * One batch of one queued listing, in one transaction. True when the listing is done (its queue
 * row is gone), false when more of its campus's searches remain.
 */
export async function matchListingBatch(ctx: AppContext, postId: string, limit = SEARCHES_PER_BATCH) {
  return ctx.db.transaction(async (tx) => {
    const [queued] = await tx
      .select({ afterId: savedSearchMatchQueue.afterId })
      .from(savedSearchMatchQueue)
      .where(eq(savedSearchMatchQueue.postId, postId))
      .for("update", { skipLocked: true });
    if (!queued) return true;
    const [listing] = rowsOf<QueuedListing>(
      await tx.execute(sql`
        select id, campus_id as "campusId", author_id as "authorId", category, price_cents as "priceCents"
        from posts where id = ${postId}::uuid and parent_id is null`),
    );
    const done = async () => {
      await tx.delete(savedSearchMatchQueue).where(eq(savedSearchMatchQueue.postId, postId));
      return true;
    };
    if (!listing) return done();
    const { candidates, matched } = await findMatches(ctx, tx, listing, queued.afterId, limit);
    if (matched.length > 0) {
      const now = ctx.clock.now();
      const written = await tx
        .insert(savedSearchHits)
        .values(
          matched.map((search) => ({
            savedSearchId: search.id,
            postId: listing.id,
            userId: search.userId,
            campusId: listing.campusId,
            createdAt: now,
          })),
        )
        .onConflictDoNothing()
        .returning({ savedSearchId: savedSearchHits.savedSearchId });
      const fresh = new Set(written.map((hit) => hit.savedSearchId));
      // Daily searches' hits wait for the digest; instant ones are told now, in this transaction.
      await tellInstantMatches(
        ctx,
        tx,
        listing,
        matched.filter((search) => search.cadence === "instant" && fresh.has(search.id)),
        now,
      );
    }
    const last = candidates[candidates.length - 1];
    if (candidates.length < limit || !last) return done();
    await tx
      .update(savedSearchMatchQueue)
      .set({ afterId: last.id })
      .where(and(eq(savedSearchMatchQueue.postId, postId)));
    return false;
  });
}

/**
 * Decision 0621: one run of the matching job: the oldest queued listings, batch after batch, at
 * most BATCHES_PER_RUN batches; `more` when work is left (the registry runs it again at once).
 */
export async function runSavedSearchMatching(
  ctx: AppContext,
  stopping: () => boolean = () => false,
): Promise<{ more: boolean }> {
  const queued = await ctx.db
    .select({ postId: savedSearchMatchQueue.postId })
    .from(savedSearchMatchQueue)
    .orderBy(savedSearchMatchQueue.enqueuedAt, savedSearchMatchQueue.postId)
    .limit(LISTINGS_PER_RUN);
  let batches = 0;
  for (const row of queued) {
    for (;;) {
      if (stopping() || batches >= BATCHES_PER_RUN) return { more: !stopping() };
      batches++;
      if (await matchListingBatch(ctx, row.postId)) break;
    }
  }
  return { more: queued.length === LISTINGS_PER_RUN && !stopping() };
}
