import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { FeedList } from "~/app/components/posts/feed-list";
import { isSaveToggle } from "~/app/components/posts/feed-model";
import { pageTitle } from "~/app/components/shell/campus";
import { BackButton } from "~/app/components/ui/back-button";
import { BookmarkIcon } from "~/app/components/ui/icons";
import { listLoader } from "~/app/lib/errors.server";
import { isLiveRevalidation } from "~/app/lib/realtime";
import { requireUser } from "~/app/lib/viewer.server";
import { listSaved } from "~/server/posts/feed";
import { listPageHref } from "~/server/posts/list-names.shared";
import type { Route } from "./+types/saved";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** spec 2 §2 '/saved': the posts the viewer saved on this campus, 10 a page, most recently saved first. */
export async function loader(args: Route.LoaderArgs) {
  const { context, request } = args;
  const viewer = await requireUser(args);
  const cursor = new URL(request.url).searchParams.get("cursor");
  return listLoader(
    context.app,
    async () => {
      const page = await listSaved(context.app, viewer, { campusId: context.campus.id, cursor });
      return data({ page, listError: null });
    },
    {
      participation: (refusal) => (refusal.kind === "verify-email" ? { redirect: "/verify" } : null),
      // A tampered cursor: 'This list could not be loaded. Please refresh the page.'
      refused: (listError) => ({ page: null, listError }),
    },
  );
}

/** Unsaving here keeps the post on screen (with Save to undo it) rather than reloading the list. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (isSaveToggle(formData) || isLiveRevalidation()) return false;
  return defaultShouldRevalidate;
}

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Saved", matches[0]?.loaderData?.campus) }];
}

function EmptySaved() {
  return (
    <section className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
      <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <BookmarkIcon className="size-6" />
      </span>
      <h2 className="mt-4 text-lg font-bold text-zinc-900">You haven't liked any posts yet</h2>
      <p className="mt-1 text-[15px] text-zinc-600">When you like a post, it'll show up here.</p>
    </section>
  );
}

export default function Saved({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        <BackButton />
        <h1 className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">Saved</h1>
      </div>
      {loaderData.page ? (
        // spec 2 §9: the end-of-list trigger of saved posts is within 1 px of the bottom.
        <FeedList
          page={loaderData.page}
          nextPageHref={(cursor) => listPageHref("saved", cursor)}
          label="Saved posts"
          empty={<EmptySaved />}
          triggerMarginPx={1}
        />
      ) : (
        <p role="alert" className="rounded-2xl border border-zinc-200 bg-white px-6 py-10 text-center">
          {loaderData.listError}
        </p>
      )}
    </div>
  );
}
