import { data, Link, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { z } from "zod";
import { MediaGrid } from "~/app/components/media/media-grid";
import { END_TRIGGER, ListEnd, usePagedList } from "~/app/components/media/paged-list";
import { FeedList } from "~/app/components/posts/feed-list";
import { isSaveToggle } from "~/app/components/posts/feed-model";
import { ProfileHeader } from "~/app/components/profile/profile-header";
import {
  emptyTabText,
  PROFILE_TABS,
  ProfileContentList,
  type ProfileTab,
  ProfileTabs,
  parseProfileTab,
} from "~/app/components/profile/profile-tabs";
import { PrivateCommunityGate } from "~/app/components/schools/private-community";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import { ReputationLine } from "~/app/components/trade/reputation-line";
import { ReviewCard } from "~/app/components/trade/review-card";
import { buttonClass } from "~/app/components/ui/button";
import { campusOriginOf } from "~/app/lib/campus-origin.server";
import { failureReply, listLoader } from "~/app/lib/errors.server";
import { formFields, readForm, readIntent } from "~/app/lib/form.server";
import { pageHref } from "~/app/lib/list-pages";
import { isLiveRevalidation } from "~/app/lib/realtime";
import { REPORT_INTENT, reportContent } from "~/app/lib/report.server";
import { useRootData } from "~/app/lib/root-data";
import { getViewer } from "~/app/lib/viewer.server";
import { redirectToClaimLinkSent } from "~/app/routes/auth/magic-link.server";
import type { ProfileActionData } from "~/app/routes/profile/profile-action.server";
import { requestClaimLink } from "~/server/accounts/magic-link";
import { blockUser, unblockUser, viewerBlocked } from "~/server/chats/blocks";
import { CHAT_MESSAGES } from "~/server/chats/schemas.shared";
import type { Page } from "~/server/lists/pages";
import {
  listProfilePhotos,
  listProfilePosts,
  listProfileReplies,
  listProfileSaves,
} from "~/server/posts/feed";
import { listPageHref } from "~/server/posts/list-names.shared";
import { type MediaTileData, toMediaTiles } from "~/server/posts/media-tiles";
import type { PostSummary } from "~/server/posts/views";
import {
  getProfileById,
  getProfileByUsername,
  getProfilePage,
  profilePhotoSizes,
} from "~/server/profiles/profiles";
import { getReputation } from "~/server/trade/reputation";
import { listReviewsOfUser, type ReviewView } from "~/server/trade/review-reads";
import { REVIEW_MESSAGES } from "~/server/trade/review-rules.shared";
import { replyToReview } from "~/server/trade/reviews";
import type { Route } from "./+types/profile";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** spec 1 §2: '/{username}' and, with no username, the signed-in user's own profile ('/profile', protected). */
export async function loader(args: Route.LoaderArgs) {
  const { params, context } = args;
  const viewer = await getViewer(args);
  // spec 2 §2 'Profile content': unverified signed-in users are redirected to /verify on the profile page.
  if (viewer && !viewer.verified) throw redirect("/verify");
  const username = params.username;
  if (!username && !viewer) throw redirect("/");
  return listLoader(
    context.app,
    async () => {
      const profile = username
        ? await getProfilePage(context.app, viewer, context.campus.id, username)
        : viewer
          ? await getProfileById(context.app, viewer.id)
          : null;
      if (!profile) return data({ found: false as const, privateGate: false as const }, { status: 404 });
      return profilePage(args, viewer, profile);
    },
    // Decision 0135: a visitor of a private campus gets its gate, as on the feed (spec 1 §6).
    { privateGate: () => ({ found: false as const, privateGate: true as const }) },
  );
}

/** The profile page's data: the profile, and its tab's list. */
async function profilePage(
  args: Route.LoaderArgs,
  viewer: Awaited<ReturnType<typeof getViewer>>,
  profile: NonNullable<Awaited<ReturnType<typeof getProfileById>>>,
) {
  const { request, context } = args;

  const origin = campusOriginOf(request, context);
  const photo = profilePhotoSizes(profile.img);
  const url = new URL(request.url);
  const show = parseProfileTab(url.searchParams.get("show"));
  const page = {
    found: true as const,
    profile: {
      // Which profile the tabs' next pages are read for (decision 0106).
      id: profile.id,
      username: profile.username,
      firstName: profile.firstName,
      lastName: profile.lastName,
      bio: profile.bio,
      badge: profile.badge,
      verified: profile.verified,
      profileSetUp: profile.profileSetUp,
      totalPosts: profile.totalPosts,
    },
    photo: photo?.large ?? null,
    own: viewer?.id === profile.id,
    // Decision 0230: the menu offers Block or Unblock.
    blocked: await viewerBlocked(context.app, viewer, profile.id),
    // Decision 0616: the reputation line, one indexed read of the summary row.
    reputation: await getReputation(context.app.db, profile.id),
    show,
    profileUrl: `${origin}/${profile.username}`,
    photoUrl: photo ? new URL(photo.large, origin).toString() : null,
  };
  const list = { userId: profile.id, cursor: url.searchParams.get("cursor") };
  return listLoader(context.app, async () => data({ ...page, ...(await readTab(args, show, list)) }), {
    // A private campus's tabs say 'This community is private' (spec 2 §6); a tampered cursor, its message.
    refused: (listError) => ({ ...page, ...NO_PAGE, listError }),
  });
}

const NO_PAGE = { page: null, tiles: null, reviews: null, listError: null, cursor: null };

/**
 * One tab's list (spec 2 §7 'Profile posts / photos / replies', 'Liked posts'):
 * 10 a page, on this campus, `?cursor=` for the next page. The photos tab sends
 * tiles (the grid shows no text). A private campus keeps its content from
 * visitors (spec 2 §6); a tampered cursor gives the domain's message (through listLoader).
 */
async function readTab(
  args: Route.LoaderArgs,
  show: ProfileTab,
  input: { userId: string; cursor: string | null },
): Promise<{
  page: Page<PostSummary> | null;
  tiles: Page<MediaTileData> | null;
  reviews: Page<ReviewView> | null;
  listError: string | null;
  cursor: string | null;
}> {
  const { context } = args;
  const viewer = await getViewer(args);
  const list = { ...input, campusId: context.campus.id };
  switch (show) {
    case "home":
      return { ...NO_PAGE, cursor: input.cursor, page: await listProfilePosts(context.app, viewer, list) };
    case "replies":
      return {
        ...NO_PAGE,
        cursor: input.cursor,
        page: await listProfileReplies(context.app, viewer, list),
      };
    case "likes":
      return { ...NO_PAGE, cursor: input.cursor, page: await listProfileSaves(context.app, viewer, list) };
    case "reviews":
      return {
        ...NO_PAGE,
        cursor: input.cursor,
        reviews: await listReviewsOfUser(context.app, viewer, list),
      };
    case "photos": {
      const page = await listProfilePhotos(context.app, viewer, list);
      return {
        ...NO_PAGE,
        cursor: input.cursor,
        tiles: { items: toMediaTiles(page.items), nextCursor: page.nextCursor },
      };
    }
  }
}

/** A save toggled from a card moves nothing in these lists: the pages scrolled through stay (as on /home). */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (isSaveToggle(formData) || isLiveRevalidation()) return false;
  return defaultShouldRevalidate;
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const campus = matches[0]?.loaderData?.campus;
  if (!loaderData?.found) {
    const title = loaderData?.privateGate ? "This community is private" : "This page doesn't exist.";
    return [{ title: pageTitle(title, campus) }, { name: "robots", content: "noindex" }];
  }
  const { profile, profileUrl, photoUrl } = loaderData;
  const name = `${profile.firstName} ${profile.lastName}`;
  const title = `${name} (@${profile.username})`;
  const description = profile.bio ?? `${name} on ${campus ? campusBrand(campus) : "Campus Buy Sell"}.`;
  return [
    { title: pageTitle(title, campus) },
    { name: "description", content: description },
    { property: "og:type", content: "profile" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: profileUrl },
    { property: "profile:username", content: profile.username },
    ...(photoUrl ? [{ property: "og:image", content: photoUrl }] : []),
    { name: "twitter:card", content: "summary" },
  ];
}

const PROFILE_INTENTS = z.enum([
  REPORT_INTENT,
  "claim-account",
  "block-user",
  "unblock-user",
  "reply-review",
]);

/** The profile menu's intents: the report dialog's (decision 0540), 'claim-account', block and unblock. */
export async function action(args: Route.ActionArgs) {
  const { params, request, context } = args;
  const form = await readForm(request);
  const intent = readIntent(form, PROFILE_INTENTS);
  const username = params.username;
  if (!username) return data<ProfileActionData>({ intent, ok: false }, { status: 400 });

  // Decision 0540: the report dialog names the member it reports, as from anywhere else.
  if (intent === REPORT_INTENT) return reportContent(context.app, await getViewer(args), form);
  if (intent === "claim-account") {
    // spec 2 §2 'Claim this account' opens /login/sent; the link is mailed from here and the
    // page is told the profile, never its address (decision 0126).
    try {
      const claimed = await requestClaimLink(context.app, context.auth, username, {
        campus: context.campus,
        campusOrigin: campusOriginOf(request, context),
        headers: request.headers,
      });
      return redirectToClaimLinkSent(claimed.username);
    } catch (error) {
      return failureReply(context.app, error, { intent });
    }
  }

  // block-user, unblock-user, reply-review.
  const viewer = await getViewer(args);
  if (!viewer) throw redirect("/user_registration");
  if (intent === "reply-review") {
    // Decision 0615: the person reviewed replies once, from their Reviews tab.
    try {
      await replyToReview(context.app, viewer, formFields(form) as { reviewId: string; reply: string });
    } catch (error) {
      return failureReply(context.app, error, { intent, fallback: REVIEW_MESSAGES.somethingWentWrong });
    }
    return data<ProfileActionData>({
      intent,
      ok: true,
      toast: { message: REVIEW_MESSAGES.replySent, type: "okay" },
    });
  }
  const profile = await getProfileByUsername(context.app, username);
  if (!profile) throw data(null, { status: 404 });
  // Decision 0230: blocking from the profile, as from the chat's header.
  try {
    if (intent === "block-user") await blockUser(context.app, viewer, profile.id);
    else await unblockUser(context.app, viewer, profile.id);
  } catch (error) {
    return failureReply(context.app, error, { intent, fallback: CHAT_MESSAGES.somethingWentWrong });
  }
  const message = intent === "block-user" ? CHAT_MESSAGES.userBlocked : CHAT_MESSAGES.userUnblocked;
  return data<ProfileActionData>({ intent, ok: true, toast: { message, type: "okay" } });
}

function NotFound() {
  return (
    <section
      aria-labelledby="profile-not-found"
      className="rounded-2xl border border-zinc-200 bg-white px-6 py-14 text-center"
    >
      <h1 id="profile-not-found" className="text-2xl font-extrabold tracking-tight text-zinc-950">
        This page doesn't exist.
      </h1>
      <p className="mx-auto mt-2 max-w-sm text-zinc-600">
        The link may be broken, or the account may be gone.
      </p>
      <Link to="/search" className={buttonClass("primary", "mt-6 h-11 px-7")}>
        Search
      </Link>
    </section>
  );
}

export default function Profile({ loaderData }: Route.ComponentProps) {
  const { viewer, campus } = useRootData();
  if (!loaderData.found)
    return loaderData.privateGate ? <PrivateCommunityGate campus={campus} /> : <NotFound />;
  const { profile, photo, own, show, profileUrl } = loaderData;
  const basePath = own ? "/profile" : `/${profile.username}`;
  const tab = PROFILE_TABS.find((candidate) => candidate.show === show) ?? PROFILE_TABS[0];
  const empty = emptyTabText(show, own, profile.firstName);

  return (
    <div className="flex flex-col gap-3">
      <article className="overflow-hidden rounded-2xl border border-zinc-200 bg-white">
        <div aria-hidden="true" className="h-20 bg-gradient-to-br from-brand-600 to-brand-500 sm:h-28" />
        <ProfileHeader
          profile={profile}
          photo={photo}
          own={own}
          blocked={loaderData.blocked}
          signedIn={viewer !== null}
          profileUrl={profileUrl}
        />
        {loaderData.reputation ? (
          <ReputationLine summary={loaderData.reputation} full className="px-4 pb-3 sm:px-6" />
        ) : null}
        <ProfileTabs basePath={basePath} current={show} />
      </article>
      <section aria-label={tab.label}>
        {loaderData.listError ? (
          <EmptyTab empty={{ title: loaderData.listError, text: "" }} label={tab.label} />
        ) : loaderData.reviews ? (
          <ReviewsTab
            page={loaderData.reviews}
            label={tab.label}
            empty={empty}
            basePath={basePath}
            username={profile.username}
          />
        ) : loaderData.tiles ? (
          <PhotosTab
            key={`${basePath}:${loaderData.cursor ?? ""}`}
            userId={profile.id}
            first={loaderData.tiles}
            basePath={basePath}
            cursor={loaderData.cursor}
            label={tab.label}
            empty={empty}
          />
        ) : loaderData.page ? (
          // spec 2 §4 'Feed pagination' / §9: 10 a page, the next one loads within 251 px of the end.
          <FeedList
            key={`${basePath}:${show}:${loaderData.cursor ?? ""}`}
            page={loaderData.page}
            label={tab.label}
            empty={<EmptyTab empty={empty} label={tab.label} />}
            triggerMarginPx={251}
            nextPageHref={(next) => listPageHref(tab.list ?? "profile-posts", next, { user: profile.id })}
          />
        ) : null}
      </section>
    </div>
  );
}

function EmptyTab({ empty, label }: { empty: { title: string; text: string }; label: string }) {
  return (
    <div className="rounded-2xl border border-zinc-200 bg-white">
      <ProfileContentList label={label} empty={empty} />
    </div>
  );
}

/** spec 2 §2 'Profile content' photos: the media grid, 10 a page. */
function PhotosTab({
  userId,
  first,
  basePath,
  cursor,
  label,
  empty,
}: {
  userId: string;
  first: Page<MediaTileData>;
  basePath: string;
  cursor: string | null;
  label: string;
  empty: { title: string; text: string };
}) {
  const href = (next: string) => pageHref(basePath, "?show=photos", next);
  const list = usePagedList({
    first,
    listKey: `${basePath}:${cursor ?? ""}`,
    nextPageHref: (next) => listPageHref("profile-photos", next, { user: userId }),
  });
  if (list.items.length === 0 && !list.nextCursor) return <EmptyTab empty={empty} label={label} />;
  return (
    <div className="overflow-hidden rounded-2xl border border-zinc-200 bg-white">
      <MediaGrid tiles={list.items} label={label} onDeleted={list.remove} />
      <ListEnd
        list={list}
        nextHref={list.nextCursor ? href(list.nextCursor) : null}
        rootMargin={END_TRIGGER.profile}
        showEnd
      />
    </div>
  );
}

/**
 * Decision 0618: the Reviews tab, 10 a page by keyset; the next page is a plain link, so it works
 * without JavaScript. The subject sees their private notes and the reply form on each card.
 */
function ReviewsTab({
  page,
  label,
  empty,
  basePath,
  username,
}: {
  page: Page<ReviewView>;
  label: string;
  empty: { title: string; text: string };
  basePath: string;
  username: string;
}) {
  if (page.items.length === 0) return <EmptyTab empty={empty} label={label} />;
  return (
    <div className="overflow-hidden rounded-2xl border border-zinc-200 bg-white">
      <ul aria-label={label} className="divide-y divide-zinc-200">
        {page.items.map((review) => (
          <li key={review.id}>
            <ReviewCard review={review} replyAction={`/${username}`} reportAction={`/${username}`} />
          </li>
        ))}
      </ul>
      {page.nextCursor ? (
        <p className="border-t border-zinc-200 px-4 py-3 text-center">
          <Link
            to={pageHref(basePath, "?show=reviews", page.nextCursor)}
            className="text-sm font-semibold text-brand-700 hover:underline"
          >
            Older reviews
          </Link>
        </p>
      ) : null}
    </div>
  );
}
