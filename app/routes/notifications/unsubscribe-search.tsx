import { data, Form, Link, useNavigation } from "react-router";
import { pageTitle } from "~/app/components/shell/campus";
import { buttonClass } from "~/app/components/ui/button";
import { formFields, readForm } from "~/app/lib/form.server";
import { findSavedSearchByUnsubscribeToken, unsubscribeSavedSearch } from "~/server/search/saved-searches";
import type { Route } from "./+types/unsubscribe-search";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const SEARCH_UNSUBSCRIBE_MESSAGES = {
  invalid: "This link is not valid. You can change your alerts on your saved searches page.",
  done: "You won't get alerts for this search any more. It stays saved.",
} as const;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Saved search alerts", matches[0]?.loaderData?.campus) }];
}

/**
 * Decision 0630: the page a digest's 'Stop alerts for …' link opens. Opening it changes nothing
 * (mail scanners follow links); it names the search and asks to confirm with a button. A token
 * that names no search is a 404 with a clear text.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const search = await findSavedSearchByUnsubscribeToken(context.app, token);
  return data(
    { token, search: search ? { name: search.name, off: search.cadence === "off" } : null },
    { status: search ? 200 : 404 },
  );
}

/**
 * The confirm button, and RFC 8058's one-click POST (body 'List-Unsubscribe=One-Click', the token
 * in the address the List-Unsubscribe header names): that search's alerts go Off, nothing else.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const token = String(formFields(form).token ?? new URL(request.url).searchParams.get("token") ?? "");
  const done = await unsubscribeSavedSearch(context.app, token);
  return data({ done }, { status: done ? 200 : 404 });
}

export default function UnsubscribeSearch({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { search } = loaderData;
  const done = actionData?.done === true || search?.off === true;
  const invalid = !search || actionData?.done === false;
  return (
    <section
      aria-labelledby="unsubscribe-title"
      className="mx-auto mt-4 max-w-md rounded-2xl border border-zinc-200 bg-white px-6 py-10 text-center md:mt-8"
    >
      <h1 id="unsubscribe-title" className="text-xl font-bold tracking-tight break-words text-zinc-900">
        {invalid ? "Saved search alerts" : done ? "Alerts turned off" : `Stop alerts for “${search.name}”?`}
      </h1>
      {invalid ? (
        <p role="alert" className="mt-3 text-[15px] text-zinc-700">
          {SEARCH_UNSUBSCRIBE_MESSAGES.invalid}
        </p>
      ) : done ? (
        <p role="status" className="mt-3 text-[15px] text-zinc-700">
          {SEARCH_UNSUBSCRIBE_MESSAGES.done}
        </p>
      ) : (
        <>
          <p className="mt-3 text-[15px] text-zinc-700">
            Its alerts go Off; the search stays saved and your other searches keep theirs.
          </p>
          <Form method="post" className="mt-6">
            <input type="hidden" name="token" value={loaderData.token} />
            <button type="submit" disabled={navigation.state !== "idle"} className={buttonClass("primary")}>
              Stop Alerts
            </button>
          </Form>
        </>
      )}
      <Link
        to="/settings/searches"
        className="mt-6 block text-sm font-semibold text-brand-700 hover:underline"
      >
        Manage saved searches
      </Link>
    </section>
  );
}
