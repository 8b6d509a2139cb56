import { data, Link, redirect, useFetcher } from "react-router";
import { z } from "zod";
import { SettingsPage } from "~/app/components/settings/settings-page";
import { pageTitle } from "~/app/components/shell/campus";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { failureReply } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import { requireVerifiedUser } from "~/app/lib/viewer.server";
import {
  SAVED_SEARCH_CADENCE_HINTS,
  SAVED_SEARCH_CADENCE_LABELS,
  SAVED_SEARCH_CADENCE_ORDER,
  SAVED_SEARCH_MESSAGES,
  SAVED_SEARCH_NAME_MAX,
  savedSearchFiltersInWords,
} from "~/server/search/saved-search-rules.shared";
import {
  deleteSavedSearch,
  listSavedSearches,
  openSavedSearch,
  renameSavedSearch,
  type SavedSearchView,
  setSavedSearchCadence,
} from "~/server/search/saved-searches";
import type { Route } from "./+types/searches";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Saved searches", matches[0]?.loaderData?.campus) }];
}

/** Decision 0620: the viewer's saved searches, newest first. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireVerifiedUser(args);
  return data({ searches: await listSavedSearches(args.context.app, viewer) });
}

const SEARCH_INTENTS = z.enum([
  "rename-saved-search",
  "set-saved-search-cadence",
  "delete-saved-search",
  "open-saved-search",
]);

export async function action(args: Route.ActionArgs) {
  const viewer = await requireVerifiedUser(args);
  const form = await readForm(args.request);
  const intent = readIntent(form, SEARCH_INTENTS);
  const fields = formFields(form);
  const id = typeof fields.id === "string" ? fields.id : "";
  const app = args.context.app;
  const done = (message: string) => data({ ok: true, toast: { message, type: "okay" } as ToastInput });
  try {
    switch (intent) {
      case "rename-saved-search":
        await renameSavedSearch(app, viewer, {
          id,
          name: typeof fields.name === "string" ? fields.name : "",
        });
        return done(SAVED_SEARCH_MESSAGES.renamed);
      case "set-saved-search-cadence":
        await setSavedSearchCadence(app, viewer, {
          id,
          cadence: typeof fields.cadence === "string" ? fields.cadence : "",
        });
        return done(SAVED_SEARCH_MESSAGES.cadenceSaved);
      case "delete-saved-search":
        await deleteSavedSearch(app, viewer, { id });
        return done(SAVED_SEARCH_MESSAGES.deleted);
      case "open-saved-search": {
        const opened = await openSavedSearch(app, viewer, { id });
        throw redirect(`/search?${opened.query}`);
      }
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    return failureReply(app, error, { intent, fallback: SAVED_SEARCH_MESSAGES.somethingWentWrong });
  }
}

/**
 * /settings/searches (decisions 0620 and 0630): each saved search with its name, filters in words and
 * new matches, to open, rename, choose its alerts (Instant, Daily, Off) or delete.
 */
export default function SavedSearches({ loaderData }: Route.ComponentProps) {
  const { searches } = loaderData;
  return (
    <SettingsPage title="Saved searches" backTo="/settings/account">
      {searches.length === 0 ? (
        <div className="text-[15px] text-zinc-600">
          <p>You haven't saved a search yet.</p>
          <p className="mt-2">
            Search for what you want, then press <strong>Save search</strong> on the results to hear when it's
            posted.{" "}
            <Link to="/search" className="font-semibold text-zinc-900 underline">
              Search
            </Link>
          </p>
        </div>
      ) : (
        <ul className="-mx-5 divide-y divide-zinc-100 md:-mx-7">
          {searches.map((search) => (
            <SavedSearchRow key={search.id} search={search} />
          ))}
        </ul>
      )}
    </SettingsPage>
  );
}

function SavedSearchRow({ search }: { search: SavedSearchView }) {
  const rename = useFetcher<{ toast?: ToastInput | null }>();
  const cadence = useFetcher<{ toast?: ToastInput | null }>();
  const remove = useFetcher<{ toast?: ToastInput | null }>();
  useActionToast(rename.data?.toast);
  useActionToast(cadence.data?.toast);
  useActionToast(remove.data?.toast);
  const filters = savedSearchFiltersInWords(search.filters);
  const nameId = `saved-search-name-${search.id}`;
  return (
    <li className="flex flex-col gap-3 px-5 py-4 md:px-7">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold break-words">{search.name}</p>
          <p className="text-sm text-zinc-600 break-words">
            “{search.q}”{filters ? ` · ${filters}` : ""}
          </p>
          {/* Decision 0630: the listings delivered to it since it was last opened. */}
          <p className="text-sm text-zinc-500">
            {search.newMatches === 0
              ? "No new matches"
              : `${search.newMatches} new ${search.newMatches === 1 ? "match" : "matches"}`}
          </p>
        </div>
        <form method="post" className="shrink-0">
          <input type="hidden" name="intent" value="open-saved-search" />
          <input type="hidden" name="id" value={search.id} />
          <button
            type="submit"
            className="rounded-full bg-zinc-900 px-4 py-1.5 text-sm font-semibold text-white hover:bg-zinc-700"
          >
            Open
          </button>
        </form>
      </div>
      <rename.Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="rename-saved-search" />
        <input type="hidden" name="id" value={search.id} />
        <label htmlFor={nameId} className="flex min-w-0 flex-1 flex-col text-sm font-medium text-zinc-700">
          Name
          <input
            id={nameId}
            name="name"
            defaultValue={search.name}
            maxLength={SAVED_SEARCH_NAME_MAX}
            required
            className="mt-1 rounded-lg border border-zinc-300 px-3 py-2 text-[15px] text-zinc-900"
          />
        </label>
        <button
          type="submit"
          className="rounded-full border border-zinc-300 px-3 py-2 text-sm font-semibold hover:bg-zinc-50"
        >
          Save name
        </button>
      </rename.Form>
      <cadence.Form method="post">
        <input type="hidden" name="intent" value="set-saved-search-cadence" />
        <input type="hidden" name="id" value={search.id} />
        <fieldset>
          <legend className="text-sm font-medium text-zinc-700">Alerts</legend>
          <div className="mt-1 flex flex-col gap-1">
            {SAVED_SEARCH_CADENCE_ORDER.map((value) => (
              <label key={value} className="flex items-start gap-2 text-[15px]">
                <input
                  type="radio"
                  name="cadence"
                  value={value}
                  defaultChecked={search.cadence === value}
                  className="mt-1"
                />
                <span>
                  {SAVED_SEARCH_CADENCE_LABELS[value]}
                  <span className="block text-sm text-zinc-500">{SAVED_SEARCH_CADENCE_HINTS[value]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="mt-2 flex gap-2">
          <button
            type="submit"
            className="rounded-full border border-zinc-300 px-3 py-1.5 text-sm font-semibold hover:bg-zinc-50"
          >
            Save alerts <span className="sr-only">for {search.name}</span>
          </button>
        </div>
      </cadence.Form>
      <remove.Form method="post">
        <input type="hidden" name="intent" value="delete-saved-search" />
        <input type="hidden" name="id" value={search.id} />
        <button type="submit" className="text-sm font-semibold text-red-700 underline">
          Delete <span className="sr-only">the saved search {search.name}</span>
        </button>
      </remove.Form>
    </li>
  );
}
