import { useEffect, useState } from "react";
import {
  data,
  Link,
  redirect,
  type ShouldRevalidateFunctionArgs,
  useNavigate,
  useSearchParams,
} from "react-router";
import { z } from "zod";
import { PostAdBar } from "~/app/components/ads/post-ad-bar";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { CommentComposer } from "~/app/components/posts/comment-composer";
import { CommentThread } from "~/app/components/posts/comment-thread";
import { HiddenBanner } from "~/app/components/posts/hidden-banner";
import { type ListingActionData, offersBoost } from "~/app/components/posts/listing-actions";
import { NewUserBanner } from "~/app/components/posts/new-user-banner";
import type { PostActionData } from "~/app/components/posts/post-actions";
import { PostTimestamp } from "~/app/components/posts/post-age";
import { PostByline } from "~/app/components/posts/post-card";
import { PostDetailBody } from "~/app/components/posts/post-detail-body";
import { cutPlainText, displayName } from "~/app/components/posts/post-format";
import { PostMoreMenu } from "~/app/components/posts/post-more-menu";
import { PrivateListingCard, privateListingMeta } from "~/app/components/schools/private-community";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import { ListingTrade } from "~/app/components/trade/listing-trade";
import { ReputationLine } from "~/app/components/trade/reputation-line";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { BackButton } from "~/app/components/ui/back-button";
import { buttonClass } from "~/app/components/ui/button";
import { ShareModal } from "~/app/components/ui/share-modal";
import { campusOriginOf } from "~/app/lib/campus-origin.server";
import { failureReply, listLoader } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent, readReturnTo } from "~/app/lib/form.server";
import { REPORT_INTENT, reportContent } from "~/app/lib/report.server";
import { useRootData } from "~/app/lib/root-data";
import type { ToastInput } from "~/app/lib/toast";
import { redirectWithToast } from "~/app/lib/toast.server";
import { getViewer } from "~/app/lib/viewer.server";
import { isWideScreen } from "~/app/lib/wide-screen";
import { postPageParticipation } from "~/app/routes/posts/post-action.server";
import { ownerBoostButton } from "~/server/ads/sponsored.shared";
import { getPostAdState } from "~/server/ads/views";
import { deleteComment, getThread } from "~/server/posts/comments";
import { formatPrice, LISTING_MESSAGES, type ListingStatus } from "~/server/posts/listing.shared";
import { renewListing, setListingStatus, unwatchListing, watchListing } from "~/server/posts/listing-status";
import { EDIT_MESSAGES, POST_MESSAGES } from "~/server/posts/post-rules.shared";
import { deletePost, getPost } from "~/server/posts/posts";
import { toggleSave } from "~/server/posts/saves";
import { listingTradePanel } from "~/server/trade/listing-panel";
import { offersOpen } from "~/server/trade/offer-rules.shared";
import { getReputation } from "~/server/trade/reputation";
import type { Route } from "./+types/post";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** spec 2 §2 '/post/{id}': the post with every photo and video, and its thread. */
export async function loader(args: Route.LoaderArgs) {
  const { params, context, request } = args;
  const viewer = await getViewer(args);
  const ref = { postId: params.id, campusId: context.campus.id };
  const load = async () => {
    const [post, thread, adState] = await Promise.all([
      getPost(context.app, viewer, ref),
      getThread(context.app, viewer, ref),
      getPostAdState(context.app, viewer, ref),
    ]);
    // spec 2 §8 'Sorry, that post has been deleted.' (missing, deleted, or of another campus).
    if (!post || !thread) return data({ state: "missing" as const }, { status: 404 });
    // Decision 0616: the seller's line on a listing, one read of their summary row.
    const sellerReputation =
      post.parentId === null && post.listing.priceCents !== null
        ? await getReputation(context.app.db, post.author.id)
        : null;
    const origin = campusOriginOf(request, context);
    // Decisions 0601, 0604: the seller's 'Offers (n)' and 'Mark sold to…' on a listing with a price.
    const sellsWithPrice =
      post.type === "post" && post.listing.kind === "selling" && post.listing.priceCents !== null;
    const trade =
      sellsWithPrice && post.listing.status !== "sold"
        ? await listingTradePanel(context.app, viewer, post)
        : null;
    const image = post.media.find((media) => media.kind === "image");
    return data({
      state: "found" as const,
      post,
      thread,
      adState,
      trade,
      sellerReputation,
      url: `${origin}/post/${post.id}`,
      imageUrl: image ? new URL(image.url, origin).toString() : null,
    });
  };
  // spec 2 §6: a private community's posts only for signed-in users.
  return listLoader(context.app, load, { privateGate: () => ({ state: "private" as const }) });
}

/** Removing `?redirect=true` after the share dialog opened reloads nothing (spec 2 §2). */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (
    !formMethod &&
    currentUrl.pathname === nextUrl.pathname &&
    currentUrl.searchParams.has("redirect") &&
    !nextUrl.searchParams.has("redirect")
  ) {
    return false;
  }
  return defaultShouldRevalidate;
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const campus = matches[0]?.loaderData?.campus;
  if (!loaderData || loaderData.state === "missing") {
    return [{ title: pageTitle(POST_MESSAGES.postGone, campus) }, { name: "robots", content: "noindex" }];
  }
  // Decision 0135: a shared link to a private campus's post previews the campus, not the post.
  if (loaderData.state === "private") return privateListingMeta(campus);
  const { post, url, imageUrl } = loaderData;
  const name = displayName(post.author);
  const brand = campus ? campusBrand(campus) : "Campus Buy Sell";
  // Link previews (spec 2 §2 'Post detail'): who posted where, the text's start, the first photo; decision 0170: the price.
  const price = post.listing.priceCents === null ? null : formatPrice(post.listing.priceCents);
  const title = price ? `${price} · ${name} on ${brand}` : `${name} on ${brand}`;
  const text =
    cutPlainText(post.plainText, 200) ||
    (post.imgCount > 0
      ? `${post.imgCount === 1 ? "A photo" : `${post.imgCount} photos`} from ${name}.`
      : title);
  const description = price && !text.startsWith(price) ? `${price} · ${text}` : text;
  return [
    { title: pageTitle(`${name}: ${cutPlainText(post.plainText, 60) || "Post"}`, campus) },
    { name: "description", content: description },
    { property: "og:type", content: "article" },
    { property: "og:site_name", content: brand },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    ...(imageUrl ? [{ property: "og:image", content: imageUrl }] : []),
    // Decision 0170: the price as product tags too (cents → dollars with two decimals, USD as spec 2 §9).
    ...(post.listing.priceCents !== null
      ? [
          { property: "product:price:amount", content: (post.listing.priceCents / 100).toFixed(2) },
          { property: "product:price:currency", content: "USD" },
        ]
      : []),
    { name: "twitter:card", content: imageUrl ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    ...(imageUrl ? [{ name: "twitter:image", content: imageUrl }] : []),
  ];
}

const POST_PAGE_INTENTS = z.enum([
  "toggle-save",
  REPORT_INTENT,
  "delete-post",
  "delete-comment",
  "set-listing-status",
  "renew-listing",
  "watch-listing",
  "unwatch-listing",
]);

/**
 * intents 'toggle-save' (spec 2 §4 'Save/like'), 'delete-post' and
 * 'delete-comment' (spec 2 §4 'Post lifecycle'), and the listings' 'set-listing-status' (decision 0170),
 * 'renew-listing', 'watch-listing', 'unwatch-listing' (decision 0170–0172); the domain decides who may.
 */
export async function action(args: Route.ActionArgs) {
  const { params, context, request } = args;
  const viewer = await getViewer(args);
  const form = await readForm(request);
  const intent = readIntent(form, POST_PAGE_INTENTS);
  // A plain HTML form (no JavaScript) goes back to the page it was sent from, a path of this site;
  // read before any write, so a bad one is a 400 that changed nothing (docs/product/outages-and-errors.md).
  const returnTo = readReturnTo(form);
  // Decision 0540: a post's or comment's report, from its page or any list's card.
  if (intent === REPORT_INTENT) return reportContent(context.app, viewer, form);
  try {
    if (intent === "toggle-save") {
      const result = await toggleSave(context.app, viewer, params.id);
      const toast = result.saved ? ({ message: POST_MESSAGES.postSaved, type: "success" } as const) : null;
      if (returnTo) return toast ? redirectWithToast(returnTo, toast) : redirect(returnTo);
      return data<PostActionData>({
        intent,
        ok: true,
        saved: result.saved,
        saveCount: result.saveCount,
        toast,
      });
    }
    if (
      intent === "set-listing-status" ||
      intent === "renew-listing" ||
      intent === "watch-listing" ||
      intent === "unwatch-listing"
    ) {
      const answer = await listingAction(context.app, viewer, intent, params.id, form);
      if (returnTo) return redirectWithToast(returnTo, answer.toast);
      return data<ListingActionData>({ intent, ok: true, ...answer });
    }
    // delete-comment names the comment; delete-post is this page's post (or, from a list, `postId`).
    const target = String(formFields(form).postId ?? params.id);
    const remove = intent === "delete-comment" ? deleteComment : deletePost;
    const result = await remove(context.app, viewer, target);
    // spec 2 §8: 'Your post was deleted' (success) → the feed; 'Comment Removed' (success).
    if (result.kind === "post") {
      const to = returnTo ?? "/home";
      return redirectWithToast(to, { message: POST_MESSAGES.postDeleted, type: "success" });
    }
    const stay = result.id === params.id ? `/post/${result.rootId}` : `/post/${params.id}`;
    return redirectWithToast(stay, { message: POST_MESSAGES.commentRemoved, type: "success" });
  } catch (error) {
    // Unexpected errors go on to the ErrorBoundary (no fallback message).
    return failureReply(context.app, error, { intent, participation: postPageParticipation });
  }
}

/** The listings' post-page intents (decision 0170), each one domain call, and the toast that says it was done. */
async function listingAction(
  app: Route.ActionArgs["context"]["app"],
  viewer: Awaited<ReturnType<typeof getViewer>>,
  intent: "set-listing-status" | "renew-listing" | "watch-listing" | "unwatch-listing",
  postId: string,
  form: FormData,
): Promise<{ status?: ListingStatus; watching?: boolean; toast: ToastInput }> {
  if (intent === "set-listing-status") {
    const { status } = await setListingStatus(app, viewer, {
      postId,
      status: String(formFields(form).status ?? ""),
    });
    return { status, toast: { message: LISTING_MESSAGES.statusChanged(status), type: "success" } };
  }
  if (intent === "renew-listing") {
    await renewListing(app, viewer, postId);
    return { status: "available", toast: { message: LISTING_MESSAGES.renewed, type: "success" } };
  }
  if (intent === "watch-listing") {
    await watchListing(app, viewer, postId);
    return { watching: true, toast: { message: LISTING_MESSAGES.watching, type: "success" } };
  }
  await unwatchListing(app, viewer, postId);
  return { watching: false, toast: { message: LISTING_MESSAGES.unwatched, type: "okay" } };
}

/** Puts the caret in the page's comment box (spec 2 §2 'Comment', 'Create A Comment'). */
function focusCommentBox() {
  const box = document.getElementById("comment-box");
  if (!box) return;
  box.scrollIntoView({ block: "center", behavior: "smooth" });
  box
    .querySelector<HTMLElement>('[contenteditable="true"], textarea, input:not([type="hidden"]), button')
    ?.focus({ preventScroll: true });
}

export default function PostPage({ loaderData, actionData }: Route.ComponentProps) {
  const { campus } = useRootData();
  useActionToast(actionData?.toast);
  if (loaderData.state === "private") return <PrivateListingCard campus={campus} />;
  if (loaderData.state === "missing") return <PostGone />;
  return <PostDetailView key={loaderData.post.id} data={loaderData} />;
}

function PageHeader() {
  return (
    <div className="flex items-center gap-2">
      <BackButton />
      <h1 className="text-xl font-bold tracking-tight text-zinc-900">Post</h1>
    </div>
  );
}

function PostGone() {
  return (
    <div className="flex flex-col gap-3">
      <PageHeader />
      <section className="rounded-2xl border border-zinc-200 bg-white px-6 py-12 text-center">
        <h2 className="text-lg font-bold text-zinc-900">{POST_MESSAGES.postGone}</h2>
        <Link to="/home" className={buttonClass("primary", "mt-6")}>
          Go To Feed
        </Link>
      </section>
    </div>
  );
}

type Found = Extract<Route.ComponentProps["loaderData"], { state: "found" }>;

function PostDetailView({ data: { post, thread, url, adState, trade, sellerReputation } }: { data: Found }) {
  const { viewer } = useRootData();
  const signIn = useSignInModal();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [sharing, setSharing] = useState(false);
  const redirectParam = searchParams.get("redirect");

  // spec 2 §2: '?redirect=true on a post opens the share dialog then goes to /post/{id}'.
  useEffect(() => {
    if (redirectParam !== "true") return;
    setSharing(true);
    navigate(`/post/${post.id}`, { replace: true, preventScrollReset: true });
  }, [redirectParam, navigate, post.id]);

  if (post.type === "new user") {
    return (
      <div className="flex flex-col gap-3">
        <PageHeader />
        <NewUserBanner post={post} />
      </div>
    );
  }

  const name = displayName(post.author);
  const kind = post.parentId === null ? "post" : "comment";

  function createComment() {
    if (!viewer) {
      signIn.open("comment");
      return;
    }
    // spec 2 §2: at 769 px and below comments are written on /create/comment/{id}.
    if (!isWideScreen()) {
      navigate(`/create/comment/${post.id}?goBack=detail`);
      return;
    }
    focusCommentBox();
  }

  return (
    <div className="flex flex-col gap-3">
      <PageHeader />
      <article
        aria-label={`Post by ${name}`}
        className="rounded-2xl border border-zinc-200 bg-white px-4 pt-4 pb-2"
      >
        <header className="flex items-start gap-2">
          <PostByline author={post.author} date={post.createdAt} />
          <PostMoreMenu
            postId={post.id}
            kind={kind}
            own={post.ownedByViewer}
            listingStatus={post.type === "post" && post.parentId === null ? post.listing.status : undefined}
            authorUsername={post.author.username}
          />
        </header>
        {/* Decision 0640: an edited listing says so, with the time; its comments stay. */}
        {post.editedAt ? (
          <p className="mt-1 pl-[52px] text-sm text-zinc-500">
            {EDIT_MESSAGES.edited} <PostTimestamp date={post.editedAt} />
          </p>
        ) : null}
        {sellerReputation ? <ReputationLine summary={sellerReputation} className="mt-1 pl-[52px]" /> : null}
        {post.hiddenBanner ? <HiddenBanner text={post.hiddenBanner} className="mt-3" /> : null}
        {post.parentId ? (
          <p className="mt-2 text-sm text-zinc-500">
            Replying to{" "}
            <Link to={`/post/${post.parentId}`} className="font-medium text-brand-700 hover:underline">
              this post
            </Link>
          </p>
        ) : null}
        <PostDetailBody post={post} authorName={name} onComment={createComment} />
        <PostAdBar
          postId={post.id}
          own={post.ownedByViewer}
          boostable={
            post.parentId === null &&
            post.type === "post" &&
            // Decision 0442: no 'Boost for $5' on a reserved or sold listing; a running ad keeps 'View Analytics'.
            (offersBoost(post.listing.status) || ownerBoostButton(adState.latest) === "analytics")
          }
          state={adState}
        />
        {/* Decision 0601: 'Make offer' for a signed-in buyer; the seller's offers below the post. */}
        {viewer && !trade ? (
          <ListingTrade
            postId={post.id}
            panel={null}
            offerPriceCents={
              post.parentId === null && offersOpen(post.listing, post.ownedByViewer)
                ? post.listing.priceCents
                : null
            }
          />
        ) : null}
      </article>
      {trade ? <ListingTrade postId={post.id} panel={trade} offerPriceCents={null} /> : null}

      <section
        aria-labelledby="comments-title"
        className="rounded-2xl border border-zinc-200 bg-white px-4 pt-4 pb-2"
      >
        <h2 id="comments-title" className="text-base font-bold text-zinc-900">
          Comments
        </h2>
        <div id="comment-box" className="mt-3">
          {/* Visitors and members who may not comment yet get their prompt from the box itself. */}
          <CommentComposer postId={post.id} />
        </div>
        {thread.length === 0 ? (
          <div className="flex flex-col items-center px-4 py-10 text-center">
            <p className="text-[15px] font-semibold text-zinc-900">Be the first to comment</p>
            <a
              href={`/create/comment/${post.id}?goBack=detail`}
              onClick={(event) => {
                event.preventDefault();
                createComment();
              }}
              className={buttonClass("secondary", "mt-4 h-11")}
            >
              Create A Comment
            </a>
          </div>
        ) : (
          <div className="mt-2">
            <CommentThread comments={thread} pagePostId={post.id} />
          </div>
        )}
      </section>
      <ShareModal open={sharing} onOpenChange={setSharing} url={url} />
    </div>
  );
}
