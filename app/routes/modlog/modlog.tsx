import { data, Link } from "react-router";
import { ModerationLogList } from "~/app/components/moderation/modlog-list";
import { PrivateCommunityGate } from "~/app/components/schools/private-community";
import { formatCalendarDate } from "~/app/components/settings/account-rows";
import { pageTitle } from "~/app/components/shell/campus";
import { listLoader } from "~/app/lib/errors.server";
import { useRootData } from "~/app/lib/root-data";
import { getViewer } from "~/app/lib/viewer.server";
import { listModerationLog } from "~/server/moderation/public-log";
import type { Route } from "./+types/modlog";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Moderation log", matches[0]?.loaderData?.campus) }];
}

/**
 * Decision 0549: the campus's moderation log, newest first, a keyset page at a time (`?cursor=`).
 * Public entries for everyone; names and private notes for the campus's staff; a visitor of a
 * private campus gets its gate, as on the feed (decision 0135).
 */
export async function loader(args: Route.LoaderArgs) {
  const { context, request } = args;
  const viewer = await getViewer(args);
  const cursor = new URL(request.url).searchParams.get("cursor");
  return listLoader(
    context.app,
    async () => {
      const log = await listModerationLog(context.app, viewer, context.campus.id, { cursor });
      const items = log.items.map(({ createdAt, ...entry }) => ({
        ...entry,
        date: formatCalendarDate(createdAt),
      }));
      return data({
        state: "log" as const,
        staffView: log.staffView,
        page: { items, nextCursor: log.nextCursor },
        listError: null,
      });
    },
    {
      privateGate: () => ({ state: "private" as const, staffView: false, page: null, listError: null }),
      refused: (listError) => ({ state: "log" as const, staffView: false, page: null, listError }),
    },
  );
}

/** /modlog (decision 0549): what moderators and site admins did on this campus, and why. */
export default function ModerationLog({ loaderData }: Route.ComponentProps) {
  const { campus } = useRootData();
  if (loaderData.state === "private") return <PrivateCommunityGate campus={campus} />;
  const { page, staffView, listError } = loaderData;
  return (
    <article aria-labelledby="modlog-title" className="flex min-w-0 flex-col gap-3">
      <header className="px-1">
        <h1 id="modlog-title" className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">
          Moderation log
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          What moderators did on {campus.name}, and why, newest first. Reporters and moderators are never
          named. See the{" "}
          <Link to="/settings/trust_and_safety" className="font-semibold text-brand-700 underline">
            code of conduct
          </Link>
          .
        </p>
        {staffView ? (
          <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200">
            You moderate this campus: you also see who acted, private notes, notes to students and role
            changes. Others see none of these.
          </p>
        ) : null}
      </header>
      {listError ? (
        <p
          role="alert"
          className="rounded-2xl border border-zinc-200 bg-white px-6 py-8 text-center text-zinc-700"
        >
          {listError}
        </p>
      ) : page ? (
        <ModerationLogList key={staffView ? "staff" : "public"} page={page} />
      ) : null}
    </article>
  );
}
