import { useEffect } from "react";
import { data, Link, type ShouldRevalidateFunctionArgs, useNavigate, useSearchParams } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { useComposer } from "~/app/components/posts/composer-context";
import { createPostHref } from "~/app/components/posts/composer-targets";
import { FeedList } from "~/app/components/posts/feed-list";
import { differsOnlyIn, isSaveToggle } from "~/app/components/posts/feed-model";
import { campusBrand, pageTitle } from "~/app/components/shell/campus";
import { createPostTarget } from "~/app/components/shell/nav-model";
import { Avatar } from "~/app/components/ui/avatar";
import { buttonClass } from "~/app/components/ui/button";
import { BellIcon } from "~/app/components/ui/icons";
import { useToast } from "~/app/components/ui/toaster";
import { UnreadBadge } from "~/app/components/ui/unread-badge";
import { listLoader } from "~/app/lib/errors.server";
import { hydratedLater } from "~/app/lib/lazy-load";
import { isLiveRevalidation } from "~/app/lib/realtime";
import { useRootData } from "~/app/lib/root-data";
import { getViewer } from "~/app/lib/viewer.server";
import { listFeedWithAds } from "~/server/ads/feed-insertion";
import { SOMETHING_WENT_WRONG } from "~/server/errors.shared";
import { categoryFilter } from "~/server/posts/categories.shared";
import { listPageHref } from "~/server/posts/list-names.shared";
import { readFeedListingFilters } from "~/server/posts/listing.shared";
import type { Route } from "./+types/home";

// Decision 0370: what only the generic campus's or a private campus's visitors see,
// and the feed's filter controls, hydrate from chunks of their own; the server renders them as ever.
const Landing = hydratedLater(() =>
  import("~/app/components/landing/landing").then((module) => module.Landing),
);
const PrivateCommunityGate = hydratedLater(() =>
  import("~/app/components/schools/private-community").then((module) => module.PrivateCommunityGate),
);
const CategoryFilter = hydratedLater(() =>
  import("~/app/components/posts/category-filter").then((module) => module.CategoryFilter),
);
const ListingFilters = hydratedLater(() =>
  import("~/app/components/posts/listing-filters").then((module) => module.ListingFilters),
);
// Decision 0441: the Feed / Media tabs are links; they need no script before the page is idle.
const FeedTabs = hydratedLater(() =>
  import("~/app/components/media/feed-tabs").then((module) => module.FeedTabs),
);

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/**
 * spec 2 §2 '/home': the campus's top-level posts, newest activity first, a page
 * at a time (`?cursor=` for the next page, `?category=` for the filter). spec 1 §6:
 * a private community shows logged-out visitors its gate instead; the domain refuses the list.
 */
export async function loader(args: Route.LoaderArgs) {
  const { context, request } = args;
  const viewer = await getViewer(args);
  const url = new URL(request.url);
  const category = categoryFilter(url.searchParams.get("category"));
  // Decision 0170: 'Free' and 'Show sold', kept in the address.
  const filters = readFeedListingFilters(url.searchParams);
  const none = { privateGate: false, page: null, category, filters, listError: null };
  if (context.campus.generic) return data(none);
  return listLoader(
    context.app,
    async () => {
      // With its sponsored posts after every 4th post (decision 0274).
      const page = await listFeedWithAds(context.app, viewer, {
        campusId: context.campus.id,
        category,
        ...filters,
        cursor: url.searchParams.get("cursor"),
      });
      return data({ ...none, page });
    },
    {
      // The private gate, or a tampered cursor's 'This list could not be loaded. Please refresh the page.'
      privateGate: () => ({ ...none, privateGate: true }),
      refused: (listError) => ({ ...none, listError }),
    },
  );
}

/**
 * A save toggled from a card changes no post's place, and dropping the
 * notify-posted flag changes nothing, nor does a chat or notification event (which reloads the
 * shell's badges): the feed is not read again, so the pages scrolled through stay (spec 2 §2
 * infinite scroll).
 */
export function shouldRevalidate({
  formData,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (isSaveToggle(formData) || isLiveRevalidation()) return false;
  if (differsOnlyIn(currentUrl, nextUrl, "filter")) return false;
  return defaultShouldRevalidate;
}

export function meta({ matches }: Route.MetaArgs) {
  const campus = matches[0]?.loaderData?.campus;
  if (campus?.generic) return [{ title: "Welcome to Campus Buy Sell" }];
  return [
    { title: pageTitle("Home", campus) },
    ...(campus
      ? [{ name: "description", content: `Buy and sell with students at ${campus.school ?? campus.name}.` }]
      : []),
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { campus, viewer, viewerCampusUrl } = useRootData();
  if (campus.generic) return <Landing viewer={viewer} viewerCampusUrl={viewerCampusUrl} />;
  if (loaderData.privateGate) return <PrivateCommunityGate campus={campus} />;
  return (
    <div className="flex flex-col gap-3">
      <HomeHeader />
      {/* Decision 0441: the photo grid, linked from the feed at every width. */}
      <FeedTabs current="feed" filters={loaderData.filters} />
      {viewer ? <ComposerPrompt /> : <WelcomePanel />}
      <NotifyPosted />
      <div className="flex flex-wrap items-center gap-2 px-1">
        <CategoryFilter value={loaderData.category} />
        <ListingFilters filters={loaderData.filters} />
      </div>
      {loaderData.page ? (
        <FeedList
          page={loaderData.page}
          nextPageHref={(cursor) =>
            listPageHref("feed", cursor, { category: loaderData.category, ...loaderData.filters })
          }
          label="Posts"
          empty={<EmptyFeed />}
        />
      ) : (
        <FeedError message={loaderData.listError} />
      )}
    </div>
  );
}

/** spec 2 §2: '?filter=notify-posted shows the alert "Your post was sent"' (then the flag leaves the address). */
function NotifyPosted() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const notify = searchParams.get("filter") === "notify-posted";
  useEffect(() => {
    if (!notify) return;
    toast.show({ message: "Your post was sent", type: "okay" });
    const rest = new URLSearchParams(searchParams);
    rest.delete("filter");
    const query = rest.toString();
    navigate(query ? `/home?${query}` : "/home", { replace: true, preventScrollReset: true });
  }, [notify, searchParams, navigate, toast]);
  return null;
}

function FeedError({ message }: { message: string | null }) {
  return (
    <section role="alert" className="rounded-2xl border border-zinc-200 bg-white px-6 py-10 text-center">
      <p className="text-[15px] text-zinc-700">{message ?? SOMETHING_WENT_WRONG}</p>
      <Link to="/home" className={buttonClass("secondary", "mt-5 h-11")}>
        Refresh
      </Link>
    </section>
  );
}

/** The page header with the notifications bell; the header total of spec 1 §2 is the account menu's badge. */
function HomeHeader() {
  const { viewer, unreadNotifications } = useRootData();
  return (
    <div className="flex items-center justify-between px-1">
      <h1 className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">Home</h1>
      {viewer ? (
        <Link
          to="/notifications"
          className="relative flex size-10 items-center justify-center rounded-full text-zinc-700 hover:bg-zinc-200/60 md:hidden"
        >
          <BellIcon className="size-6" />
          <span className="sr-only">Notifications</span>
          {/* Decision 0455: the bottom bar's bell and this one count the same; the total is the account menu's. */}
          <UnreadBadge count={unreadNotifications} className="absolute -top-0.5 -right-0.5" />
        </Link>
      ) : null}
    </div>
  );
}

/** Visitors' welcome and sign-in prompt (spec 2 §2 'Feed'). */
function WelcomePanel() {
  const { campus } = useRootData();
  const brand = campusBrand(campus);
  return (
    <section
      aria-labelledby="welcome-title"
      className="relative overflow-hidden rounded-2xl border border-zinc-200 bg-white p-6 md:p-7"
    >
      <div aria-hidden="true" className="absolute inset-x-0 top-0 h-1 bg-brand-600" />
      <div className="flex items-start gap-4">
        {campus.logo ? (
          <img src={campus.logo} alt="" width={56} height={56} className="size-14 shrink-0 rounded-xl" />
        ) : null}
        <div className="min-w-0">
          <h2 id="welcome-title" className="text-lg font-bold tracking-tight text-zinc-900 md:text-xl">
            Welcome to {brand}
          </h2>
          <p className="mt-1 text-[15px] leading-relaxed text-zinc-600">
            {campus.school
              ? `The marketplace for students at ${campus.school}. Buy, sell and trade with people on your campus.`
              : "Buy, sell and trade with people on your campus."}
          </p>
        </div>
      </div>
      <div className="mt-5 flex flex-col gap-2 rounded-xl bg-zinc-50 p-4 xs:flex-row xs:items-center xs:justify-between">
        <p className="text-sm text-zinc-700">Join to post, comment, save and message sellers.</p>
        <Link to="/user_registration" className={buttonClass("primary", "shrink-0")}>
          Log In / Sign Up
        </Link>
      </div>
    </section>
  );
}

/** The way into the composer for members: the modal, or /create/post at 769 px and below (the link without JavaScript). */
function ComposerPrompt() {
  const { viewer } = useRootData();
  const composer = useComposer();
  return (
    <Link
      to={createPostHref("home")}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        composer.openPostComposer({ goBack: "home" });
      }}
      className="flex items-center gap-3 rounded-2xl border border-zinc-200 bg-white p-4 hover:border-zinc-300"
    >
      <Avatar person={viewer} size="md" />
      <span className="min-w-0 flex-1 truncate rounded-full bg-zinc-100 px-4 py-2.5 text-[15px] text-zinc-600">
        What are you selling?
      </span>
      <span aria-hidden="true" className="hidden xs:block">
        <span className={buttonClass("primary")}>Post</span>
      </span>
    </Link>
  );
}

function EmptyFeed() {
  const { viewer } = useRootData();
  const signIn = useSignInModal();
  const composer = useComposer();
  return (
    <section className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
      <h2 className="text-lg font-bold text-zinc-900">Nothing to see here - yet</h2>
      <p className="mt-1 text-[15px] text-zinc-600">Be the first... to create a post</p>
      <Link
        to={createPostTarget(Boolean(viewer))}
        onClick={(event) => {
          // spec 1 §6: a visitor's attempt to post opens the sign-in modal.
          event.preventDefault();
          if (viewer) composer.openPostComposer({ goBack: "home" });
          else signIn.open("post");
        }}
        className={buttonClass("secondary", "mt-5")}
      >
        Create a post
      </Link>
    </section>
  );
}
