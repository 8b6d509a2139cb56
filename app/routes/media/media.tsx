import { redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { FeedTabs } from "~/app/components/media/feed-tabs";
import { LoadMoreTile, MediaGrid } from "~/app/components/media/media-grid";
import { END_TRIGGER, ListEnd, mediaPages, usePagedList } from "~/app/components/media/paged-list";
import { isSaveToggle } from "~/app/components/posts/feed-model";
import { ListingFilters } from "~/app/components/posts/listing-filters";
import { PrivateCommunityGate } from "~/app/components/schools/private-community";
import { pageTitle } from "~/app/components/shell/campus";
import { listLoader } from "~/app/lib/errors.server";
import { useRootData } from "~/app/lib/root-data";
import { getViewer } from "~/app/lib/viewer.server";
import type { Page } from "~/server/lists/pages";
import { listFeed } from "~/server/posts/feed";
import { readFeedListingFilters } from "~/server/posts/listing.shared";
import { type MediaTileData, toMediaTiles } from "~/server/posts/media-tiles";
import type { Route } from "./+types/media";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/**
 * spec 2 §2 /media: the campus's posts with photos or videos, 15 a page (spec 2
 * §9), newest first (decision 0081). `?cursor=` gives the page after a cursor:
 * the 'Click To Load More..' tile's address without JavaScript (with it, the
 * grid reads its next pages as JSON, decision 0106).
 */
export async function loader(args: Route.LoaderArgs) {
  const { context, request } = args;
  // The generic instance is no community: it has no posts, and its /home is the landing.
  if (context.campus.generic) throw redirect("/home");
  const viewer = await getViewer(args);
  const query = new URL(request.url).searchParams;
  const cursor = query.get("cursor");
  // Decision 0170: 'Free' and 'Show sold', kept in the address.
  const filters = readFeedListingFilters(query);
  return listLoader(
    context.app,
    async () => {
      const page = await listFeed(context.app, viewer, {
        campusId: context.campus.id,
        media: true,
        cursor,
        ...filters,
      });
      return {
        privateGate: false as const,
        filters,
        cursor,
        page: { items: toMediaTiles(page.items), nextCursor: page.nextCursor } satisfies Page<MediaTileData>,
      };
    },
    {
      // spec 2 §6: a private community's media only for signed-in users.
      privateGate: () => ({
        privateGate: true as const,
        filters,
        cursor: null,
        page: { items: [], nextCursor: null } satisfies Page<MediaTileData>,
      }),
    },
  );
}

/** A like from a tile moves nothing in the grid: the pages loaded so far stay (as on /home). */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (isSaveToggle(formData)) return false;
  return defaultShouldRevalidate;
}

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Media", matches[0]?.loaderData?.campus) }];
}

export default function Media({ loaderData }: Route.ComponentProps) {
  const { campus } = useRootData();
  const pages = mediaPages(loaderData.filters);
  const list = usePagedList({
    first: loaderData.page,
    listKey: `${loaderData.cursor ?? ""} ${loaderData.filters.free} ${loaderData.filters.showSold}`,
    nextPageHref: pages.nextPageHref,
  });
  if (loaderData.privateGate) return <PrivateCommunityGate campus={campus} />;
  const nextHref = list.nextCursor ? pages.href(list.nextCursor) : null;
  return (
    <div className="flex flex-col gap-3">
      <FeedTabs current="media" filters={loaderData.filters} />
      <div className="px-1">
        <ListingFilters filters={loaderData.filters} />
      </div>
      {list.items.length === 0 ? (
        <EmptyMedia />
      ) : (
        <section aria-labelledby="media-title" className="overflow-hidden rounded-2xl bg-white">
          <h1 id="media-title" className="sr-only">
            Photos and videos
          </h1>
          <MediaGrid
            tiles={list.items}
            label="Photos and videos"
            onDeleted={list.remove}
            footer={
              nextHref ? <LoadMoreTile href={nextHref} loading={list.loading} onLoad={list.loadMore} /> : null
            }
          />
          {/* The tile above is the visible control; this foot watches the scroll (spec 2 §9: 1 px). */}
          <ListEnd list={list} nextHref={null} rootMargin={END_TRIGGER.media} showEnd />
        </section>
      )}
    </div>
  );
}

function EmptyMedia() {
  return (
    <section className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-14 text-center">
      <h1 className="text-lg font-bold text-zinc-900">No Photos / Videos</h1>
      <p className="mt-1 text-[15px] text-zinc-600">Posts with photos or videos will show up here.</p>
    </section>
  );
}
