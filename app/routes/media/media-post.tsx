import { data, Link, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { LoadMoreTile, MediaGrid } from "~/app/components/media/media-grid";
import { END_TRIGGER, ListEnd, MEDIA_PAGES, usePagedList } from "~/app/components/media/paged-list";
import { isSaveToggle } from "~/app/components/posts/feed-model";
import { PostByline } from "~/app/components/posts/post-card";
import { PostDetailBody } from "~/app/components/posts/post-detail-body";
import { cutPlainText, displayName } from "~/app/components/posts/post-format";
import { PostMoreMenu } from "~/app/components/posts/post-more-menu";
import { PrivateListingCard, privateListingMeta } from "~/app/components/schools/private-community";
import { pageTitle } from "~/app/components/shell/campus";
import { BackButton } from "~/app/components/ui/back-button";
import { buttonClass } from "~/app/components/ui/button";
import { listLoader } from "~/app/lib/errors.server";
import { useRootData } from "~/app/lib/root-data";
import { getViewer } from "~/app/lib/viewer.server";
import type { Page } from "~/server/lists/pages";
import { listFeed } from "~/server/posts/feed";
import { type MediaTileData, toMediaTiles } from "~/server/posts/media-tiles";
import { POST_MESSAGES } from "~/server/posts/post-rules.shared";
import { getPost } from "~/server/posts/posts";
import type { Route } from "./+types/media-post";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/**
 * spec 2 §2 '/media/{id}: post detail plus a grid of more media posts'. The
 * grid is the media feed's first page without this post; its next pages are the
 * media list's (decision 0106).
 */
export async function loader(args: Route.LoaderArgs) {
  const { params, context } = args;
  if (context.campus.generic) throw redirect("/home");
  const viewer = await getViewer(args);
  const load = async () => {
    const [post, more] = await Promise.all([
      getPost(context.app, viewer, { postId: params.id, campusId: context.campus.id }),
      listFeed(context.app, viewer, { campusId: context.campus.id, media: true }),
    ]);
    const tiles: Page<MediaTileData> = { items: toMediaTiles(more.items), nextCursor: more.nextCursor };
    // spec 2 §8 'Sorry, that post has been deleted.' (missing, deleted, or of another campus).
    if (!post) return data({ state: "missing" as const, tiles }, { status: 404 });
    return data({ state: "found" as const, post, tiles });
  };
  // spec 2 §6: a private community's posts and media only for signed-in users.
  return listLoader(context.app, load, { privateGate: () => ({ state: "private" as const }) });
}

/** A save from a card or tile moves nothing: the grid's loaded pages stay (as on /home). */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (isSaveToggle(formData)) return false;
  return defaultShouldRevalidate;
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const campus = matches[0]?.loaderData?.campus;
  // Decision 0135: a link to a private campus's post previews the campus, not the post.
  if (loaderData?.state === "private") return privateListingMeta(campus);
  if (loaderData?.state !== "found") {
    return [{ title: pageTitle(POST_MESSAGES.postGone, campus) }, { name: "robots", content: "noindex" }];
  }
  const { post } = loaderData;
  return [
    {
      title: pageTitle(`${displayName(post.author)}: ${cutPlainText(post.plainText, 60) || "Media"}`, campus),
    },
    // The post's own page is the one to share and index.
    { tagName: "link", rel: "canonical", href: `/post/${post.id}` },
  ];
}

export default function MediaPost({ loaderData }: Route.ComponentProps) {
  const { campus } = useRootData();
  if (loaderData.state === "private") return <PrivateListingCard campus={campus} />;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        <BackButton />
        <h1 className="text-xl font-bold tracking-tight text-zinc-900">Media</h1>
      </div>
      {loaderData.state === "found" ? (
        <PostDetail key={loaderData.post.id} post={loaderData.post} />
      ) : (
        <section className="rounded-2xl border border-zinc-200 bg-white px-6 py-12 text-center">
          <h2 className="text-lg font-bold text-zinc-900">{POST_MESSAGES.postGone}</h2>
          <Link to="/media" className={buttonClass("primary", "mt-6")}>
            Back to Media
          </Link>
        </section>
      )}
      <MoreMedia
        first={loaderData.tiles}
        exclude={loaderData.state === "found" ? loaderData.post.id : null}
      />
    </div>
  );
}

type Found = Extract<Route.ComponentProps["loaderData"], { state: "found" }>;

/** The post as its page shows it (U2's pieces), without the thread: 'Comment' leads to /post/{id}. */
function PostDetail({ post }: { post: Found["post"] }) {
  const name = displayName(post.author);
  return (
    <article
      aria-label={`Post by ${name}`}
      className="rounded-2xl border border-zinc-200 bg-white px-4 pt-4 pb-2"
    >
      <header className="flex items-start gap-2">
        <PostByline author={post.author} date={post.createdAt} postHref={`/post/${post.id}`} />
        <PostMoreMenu
          postId={post.id}
          kind={post.parentId === null ? "post" : "comment"}
          own={post.ownedByViewer}
          listingStatus={post.type === "post" && post.parentId === null ? post.listing.status : undefined}
          authorUsername={post.author.username}
        />
      </header>
      <PostDetailBody post={post} authorName={name} />
    </article>
  );
}

/** 'More Photos / Videos': the media grid under the post, without it. */
function MoreMedia({ first, exclude }: { first: Page<MediaTileData>; exclude: string | null }) {
  const list = usePagedList({
    first,
    listKey: "media",
    nextPageHref: MEDIA_PAGES.nextPageHref,
  });
  const tiles = list.items.filter((tile) => tile.id !== exclude);
  if (tiles.length === 0) return null;
  const nextHref = list.nextCursor ? MEDIA_PAGES.href(list.nextCursor) : null;
  return (
    <section
      aria-labelledby="more-media-title"
      className="overflow-hidden rounded-2xl border border-zinc-200 bg-white"
    >
      <h2 id="more-media-title" className="px-4 pt-4 pb-3 text-base font-bold text-zinc-900">
        More Photos / Videos
      </h2>
      <MediaGrid
        tiles={tiles}
        label="More photos and videos"
        onDeleted={list.remove}
        footer={
          nextHref ? <LoadMoreTile href={nextHref} loading={list.loading} onLoad={list.loadMore} /> : null
        }
      />
      <ListEnd list={list} nextHref={null} rootMargin={END_TRIGGER.media} showEnd />
    </section>
  );
}
