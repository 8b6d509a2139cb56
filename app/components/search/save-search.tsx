import { Link, useFetcher } from "react-router";
import { useActionToast } from "~/app/components/ui/action-feedback";
import type { ToastInput } from "~/app/lib/toast";

/**
 * Decision 0620: 'Save search' under a search's filters. The form posts the address's own query
 * string; once saved (now or before) it reads 'Saved' with a link to the saved searches.
 */
export function SaveSearch({ query, saved }: { query: string; saved: boolean }) {
  const save = useFetcher<{ saved?: boolean; toast?: ToastInput | null }>();
  useActionToast(save.data?.toast);
  const isSaved = saved || save.data?.saved === true;
  return (
    <div className="flex items-center justify-end gap-3 text-sm">
      {isSaved ? (
        <p className="font-medium text-zinc-700">
          Saved ·{" "}
          <Link to="/settings/searches" className="font-semibold text-zinc-900 underline">
            Saved searches
          </Link>
        </p>
      ) : (
        <save.Form method="post" action="/search">
          <input type="hidden" name="intent" value="save-search" />
          <input type="hidden" name="query" value={query} />
          <button
            type="submit"
            disabled={save.state !== "idle"}
            className="rounded-full border border-zinc-300 bg-white px-4 py-1.5 font-semibold text-zinc-900 hover:bg-zinc-50 disabled:opacity-60"
          >
            Save search
          </button>
        </save.Form>
      )}
    </div>
  );
}
