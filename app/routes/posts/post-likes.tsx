import { data, Link } from "react-router";
import { VerifiedBadge } from "~/app/components/posts/post-card";
import { displayName } from "~/app/components/posts/post-format";
import { PrivateCommunityGate } from "~/app/components/schools/private-community";
import { pageTitle } from "~/app/components/shell/campus";
import { Avatar } from "~/app/components/ui/avatar";
import { BackButton } from "~/app/components/ui/back-button";
import { buttonClass } from "~/app/components/ui/button";
import { LoadMoreList } from "~/app/components/ui/load-more-list";
import { listLoader } from "~/app/lib/errors.server";
import { useRootData } from "~/app/lib/root-data";
import { getViewer } from "~/app/lib/viewer.server";
import type { Page } from "~/server/lists/pages";
import type { UserSummary } from "~/server/lists/user-summary";
import { POST_MESSAGES } from "~/server/posts/post-rules.shared";
import { listPostSavers } from "~/server/posts/saves";
import type { Route } from "./+types/post-likes";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** spec 2 §2 '/post/{id}/likes': the people who saved a post, most recent first. */
export async function loader(args: Route.LoaderArgs) {
  const { params, context, request } = args;
  const viewer = await getViewer(args);
  const cursor = new URL(request.url).searchParams.get("cursor");
  return listLoader(
    context.app,
    async () => {
      const page = await listPostSavers(context.app, viewer, {
        postId: params.id,
        campusId: context.campus.id,
        cursor,
      });
      if (!page) return data({ state: "missing" as const, page: null, listError: null }, { status: 404 });
      return data({ state: "found" as const, page, listError: null });
    },
    {
      privateGate: () => ({ state: "private" as const, page: null, listError: null }),
      refused: (listError) => ({ state: "found" as const, page: null, listError }),
    },
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Saved by", matches[0]?.loaderData?.campus) }];
}

function LikerRow({ person }: { person: UserSummary }) {
  return (
    <li>
      <Link
        to={`/${person.username}`}
        className="flex min-h-14 items-center gap-3 rounded-xl px-2 py-2 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <Avatar person={person} size="md" />
        <span className="min-w-0 flex-1 leading-tight">
          <span className="flex items-center gap-1">
            <span className="truncate font-semibold text-zinc-900">{displayName(person)}</span>
            <VerifiedBadge badge={person.badge} />
          </span>
          <span className="block truncate text-sm text-zinc-500">@{person.username}</span>
        </span>
      </Link>
    </li>
  );
}

/** The list, with 'Load more' fetching the next page in place (or opening it without JavaScript). */
function Likers({ page }: { page: Page<UserSummary> }) {
  return (
    <LoadMoreList
      page={page}
      label="People who saved this post"
      listClassName="flex flex-col"
      renderItem={(person) => <LikerRow key={person.id} person={person} />}
      empty={
        <section className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
          <h2 className="text-lg font-bold text-zinc-900">No Users</h2>
        </section>
      }
    />
  );
}

export default function PostLikes({ loaderData, params }: Route.ComponentProps) {
  const { campus } = useRootData();
  if (loaderData.state === "private") return <PrivateCommunityGate campus={campus} />;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        <BackButton />
        <h1 className="text-xl font-bold tracking-tight text-zinc-900">Saved by</h1>
      </div>
      {loaderData.state === "missing" ? (
        <section className="rounded-2xl border border-zinc-200 bg-white px-6 py-12 text-center">
          <h2 className="text-lg font-bold text-zinc-900">{POST_MESSAGES.postGone}</h2>
          <Link to="/home" className={buttonClass("primary", "mt-6")}>
            Go To Feed
          </Link>
        </section>
      ) : loaderData.page ? (
        <Likers key={params.id} page={loaderData.page} />
      ) : (
        <p role="alert" className="rounded-2xl border border-zinc-200 bg-white px-6 py-10 text-center">
          {loaderData.listError}
        </p>
      )}
      {loaderData.state === "found" ? (
        <Link
          to={`/post/${params.id}`}
          className="self-center text-sm font-semibold text-brand-700 hover:underline"
        >
          Back to the post
        </Link>
      ) : null}
    </div>
  );
}
