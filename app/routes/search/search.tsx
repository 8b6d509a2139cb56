import { data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { z } from "zod";
import { isSaveToggle } from "~/app/components/posts/feed-model";
import { FilterBar } from "~/app/components/search/filter-bar";
import { PopularSearches } from "~/app/components/search/popular-searches";
import { PrivateSearch } from "~/app/components/search/private-search";
import { SaveSearch } from "~/app/components/search/save-search";
import { SearchHeader } from "~/app/components/search/search-header";
import { ResultsView, type SearchResults } from "~/app/components/search/search-results";
import { SearchTabs } from "~/app/components/search/search-tabs";
import { pageTitle } from "~/app/components/shell/campus";
import { failureReply, listLoader } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import { isLiveRevalidation } from "~/app/lib/realtime";
import { useRootData } from "~/app/lib/root-data";
import { submittedIntent } from "~/app/lib/submission";
import type { ToastInput } from "~/app/lib/toast";
import { toastHeaders } from "~/app/lib/toast.server";
import { getViewer } from "~/app/lib/viewer.server";
import { toMediaTiles } from "~/server/posts/media-tiles";
import { SEARCH_TABS, type SearchTab, searchHref } from "~/server/search/filters.shared";
import {
  clearSearchHistory,
  listPopularSearches,
  recordSearch,
  removeRecentSearch,
} from "~/server/search/history";
import { SEARCH_MESSAGES } from "~/server/search/limits";
import { searchPeople } from "~/server/search/people";
import { searchPosts } from "~/server/search/posts";
import { readSearchFilters } from "~/server/search/read-filters";
import { newMatchIds } from "~/server/search/saved-search-matching-marks";
import { SAVED_SEARCH_MESSAGES } from "~/server/search/saved-search-rules.shared";
import { findSavedSearch, saveSearch } from "~/server/search/saved-searches";
import { normaliseSearchText } from "~/server/search/text.shared";
import type { Route } from "./+types/search";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/**
 * spec 2 §2 '/search': `q` and `show` = latest (default), media or people. Without `q`, the
 * campus's popular searches. The first page of a tab is read here (and, for a signed-in
 * person, the search goes into their history and the campus's counts); the next pages come
 * from /search/data. spec 1 §6: a visitor on a private campus gets the sign-in modal ('search').
 */
export async function loader(args: Route.LoaderArgs) {
  const { context, request } = args;
  const url = new URL(request.url);
  // spec 1 §2: the generic instance searches schools.
  if (context.campus.generic) {
    const q = url.searchParams.get("q");
    throw redirect(q ? `/search_schools?q=${encodeURIComponent(q)}` : "/search_schools");
  }
  const viewer = await getViewer(args);
  const q = normaliseSearchText(url.searchParams.get("q"));
  const showParam = url.searchParams.get("show");
  const show: SearchTab = SEARCH_TABS.find((tab) => tab === showParam) ?? "latest";
  const filters = readSearchFilters(url.searchParams);
  const cursor = url.searchParams.get("cursor");
  const campusId = context.campus.id;
  const base = {
    q,
    show,
    filters,
    cursor,
    privateGate: false,
    popular: [] as string[],
    savedSearch: false,
    newIds: [] as string[],
  };
  const search = async () => {
    if (!q) {
      const popular = await listPopularSearches(context.app, { campusId });
      return data({
        ...base,
        results: { kind: "none" } as SearchResults,
        popular: popular.map((p) => p.text),
      });
    }
    let results: SearchResults;
    if (show === "people") {
      results = {
        kind: "people",
        page: await searchPeople(context.app, viewer, { campusId, text: q, cursor }),
      };
    } else {
      const page = await searchPosts(context.app, viewer, { campusId, q, show, filters, cursor });
      results =
        show === "media"
          ? { kind: "media", page: { items: toMediaTiles(page.items), nextCursor: page.nextCursor } }
          : { kind: "latest", page: { items: page.items, nextCursor: page.nextCursor } };
      base.filters = page.applied;
    }
    // spec 2 §3 'User search history': a search, not the next page of one.
    if (!cursor) await recordSearch(context.app, viewer, { campusId, text: q });
    // Decision 0620: whether the viewer saved this search already (the save control's state).
    const savedSearch =
      viewer && show !== "people" ? await findSavedSearch(context.app, viewer, url.search) : null;
    // Decision 0621: opened from the saved searches, the listings delivered since last time are
    // marked, on this page and on those that scroll in after it.
    const newIds =
      viewer && savedSearch && results.kind === "latest" && !cursor
        ? await newMatchIds(context.app, viewer, {
            savedSearchId: savedSearch.id,
            since: url.searchParams.get("since"),
          })
        : [];
    return data({ ...base, results, savedSearch: savedSearch !== null, newIds });
  };
  return listLoader(context.app, search, {
    privateGate: () => ({ ...base, privateGate: true, results: { kind: "none" } as SearchResults }),
  });
}

const searchIntents = z.enum(["remove-recent-search", "clear-recent-searches", "save-search"]);

/** spec 2 §7: removing one recent search ('Recent Search Removed') or all ('Search History Cleared'). */
export async function action(args: Route.ActionArgs) {
  const { context, request } = args;
  const viewer = await getViewer(args);
  const form = await readForm(request);
  const intent = readIntent(form, searchIntents);
  if (!viewer) return data({ ok: false }, { status: 401 });
  if (intent === "save-search") {
    // Decision 0620: the address's own query string, saved for the viewer on this campus.
    const query = String(formFields(form).query ?? "");
    try {
      const saved = await saveSearch(context.app, viewer, { campusId: context.campus.id, query });
      const message = saved.created ? SAVED_SEARCH_MESSAGES.saved : SAVED_SEARCH_MESSAGES.alreadySaved;
      return data({ ok: true, saved: true, toast: { message, type: "okay" } as ToastInput });
    } catch (error) {
      return failureReply(context.app, error, { intent, fallback: SAVED_SEARCH_MESSAGES.somethingWentWrong });
    }
  }
  if (intent === "clear-recent-searches") {
    await clearSearchHistory(context.app, viewer, { campusId: context.campus.id });
    return data(
      { ok: true },
      { headers: await toastHeaders({ message: SEARCH_MESSAGES.historyCleared, type: "okay" }) },
    );
  }
  const text = String(formFields(form).text ?? "").slice(0, 200);
  await removeRecentSearch(context.app, viewer, { campusId: context.campus.id, text });
  return data(
    { ok: true },
    { headers: await toastHeaders({ message: SEARCH_MESSAGES.recentRemoved, type: "okay" }) },
  );
}

/** A save toggled from a result changes nothing in the list. */
export function shouldRevalidate({
  formData,
  formAction,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (isSaveToggle(formData) || isLiveRevalidation()) return false;
  // The dropdown's history buttons post here: the results stay.
  if (formAction === "/search" && submittedIntent(formData)) return false;
  return defaultShouldRevalidate;
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const q = loaderData?.q;
  return [{ title: pageTitle(q ? `${q} - Search` : "Search", matches[0]?.loaderData?.campus) }];
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { campus, viewer } = useRootData();
  const signedIn = viewer !== null;
  const { q, show, filters, results, popular, privateGate } = loaderData;
  if (privateGate) return <PrivateSearch campus={campus} />;
  return (
    <div className="flex flex-col gap-3">
      <SearchHeader />
      {q ? (
        <>
          <SearchTabs q={q} show={show} filters={filters} />
          {show !== "people" ? <FilterBar q={q} show={show} filters={filters} /> : null}
          {show !== "people" && signedIn ? (
            <SaveSearch
              query={searchHref(q, "latest", filters).slice("/search?".length)}
              saved={loaderData.savedSearch}
            />
          ) : null}
          <ResultsView
            q={q}
            results={results}
            filters={filters}
            listKey={`${q}|${show}|${loaderData.cursor ?? ""}`}
            newIds={loaderData.newIds}
          />
        </>
      ) : (
        <PopularSearches popular={popular} />
      )}
    </div>
  );
}
