import { useLocation } from "react-router";
import { SponsoredCta } from "~/app/components/ads/sponsored-cta";
import { Avatar } from "~/app/components/ui/avatar";
import { BadgeCheckIcon } from "~/app/components/ui/icons";
import { ListLink } from "~/app/components/ui/list-link";
import { hydratedLater, hydratedLaterMarkup } from "~/app/lib/lazy-load";
import { SharedMarkup } from "~/app/lib/shared-markup";
import { badgeShortText, type StudentBadge } from "~/server/accounts/badge.shared";
import type { Sponsorship } from "~/server/ads/sponsored.shared";
import type { UserSummary } from "~/server/lists/user-summary";
import { getCategory } from "~/server/posts/categories.shared";
import type { PostSummary } from "~/server/posts/views";
import { isListingPost, ListingSummary } from "./listing-labels";
import { NewUserBanner } from "./new-user-banner";
import type { PostActionsMarkup as ActionsMarkup, PostActionsPost } from "./post-actions-markup";
import { PostAge } from "./post-age";
import { displayName, formatAge } from "./post-format";
import { TagIcon } from "./post-icons";
import { FirstMedia } from "./post-media";
import { PostText } from "./post-text";

// Decision 0370: Comment / Save / Share and the owner's listing buttons hydrate from chunks of their own.
const PostActions = hydratedLater(() => import("./post-actions").then((module) => module.PostActions));
/**
 * The action row's elements for the server's shared markup (decision 0390), loaded as the server
 * starts; not imported statically, so the browser's first load stays without them (it hydrates
 * PostActions from its own chunk). Until it is there, rows render in place.
 */
let serverActionsMarkup: {
  PostActionsMarkup: typeof ActionsMarkup;
  commentHref(postId: string, onPostPage: boolean): string;
} | null = null;
if (import.meta.env.SSR) {
  void import("./post-actions-markup").then((module) => {
    serverActionsMarkup = module;
  });
}
// The owner's listing buttons, or anyone else's Send Message (decision 0440), from a chunk of their own.
const CardListingActions = hydratedLater(() =>
  import("./card-listing-actions").then((module) => module.CardListingActions),
);

export interface PostCardProps {
  /** A post or comment of any list (feed, saved, profile tabs, search); a feed's sponsored post carries `sponsored`. */
  post: PostSummary & { sponsored?: Sponsorship };
}

/**
 * The verified badge (spec 1 §2: school-verified) beside a name: the mark, its words for a screen
 * reader and as a tooltip ('Verified student · Class of 2027', 'Alum'; decision 0680).
 */
export function VerifiedBadge({ badge }: { badge: StudentBadge | null }) {
  if (!badge) return null;
  return (
    <span className="inline-flex shrink-0 text-brand-600" title={badge.label}>
      <BadgeCheckIcon className="size-4" />
      <span className="sr-only">{badge.label}</span>
    </span>
  );
}

/** Avatar, name, badge, age and handle: the head of a post card and of the post page. */
export function PostByline({
  author,
  date,
  postHref,
  avatarSize = "md",
}: {
  author: UserSummary;
  date: Date;
  /** The age links to the post (as feeds do); none on the post page itself. */
  postHref?: string;
  avatarSize?: "sm" | "md";
}) {
  const name = displayName(author);
  const profileHref = `/${author.username}`;
  const classYear = badgeShortText(author.badge);
  return (
    <div className="flex min-w-0 flex-1 items-center gap-3">
      <ListLink to={profileHref} tabIndex={-1} aria-hidden="true" className="byline-avatar">
        <Avatar person={author} size={avatarSize} />
      </ListLink>
      <div className="min-w-0 flex-1 leading-tight">
        <div className="flex min-w-0 items-center gap-1 text-[15px]">
          <ListLink to={profileHref} className="byline-name">
            {name}
          </ListLink>
          <VerifiedBadge badge={author.badge} />
          <span aria-hidden="true" className="text-zinc-400">
            ·
          </span>
          {postHref ? (
            <ListLink to={postHref} className="byline-age">
              <PostAge date={date} />
            </ListLink>
          ) : (
            <PostAge date={date} className="byline-age" />
          )}
        </div>
        <p className="truncate text-sm text-zinc-500">
          {`@${author.username}`}
          {/* Decision 0680: the class year (or 'Alum') where everyone sees it, after the handle. */}
          {classYear ? <span className="byline-class" aria-hidden="true">{` · ${classYear}`}</span> : null}
        </p>
      </div>
    </div>
  );
}

/** A post's category as a label (spec 2 §3 categories: the text of the stored value). */
export function CategoryLabel({ value }: { value: string | null }) {
  const category = value ? getCategory(value) : null;
  if (!category) return null;
  return (
    <span className="category-label">
      <TagIcon className="size-3.5 shrink-0 text-zinc-500" />
      <span className="truncate">{category.text}</span>
    </span>
  );
}

/**
 * A post in a list (spec 2 §2 'Feed'): author, age, category, text cut at 200
 * characters, the first photo or video, and Comment / Save / Share. A 'new user'
 * post is the '… has joined the community' banner instead. A comment (profile
 * replies tab) links to its thread.
 */
export function PostCard({ post }: PostCardProps) {
  const location = useLocation();
  if (post.type === "new user") return <NewUserBanner post={post} />;
  // Where Save's plain form (before the page's script runs) brings the reader back.
  const returnTo = `${location.pathname}${location.search}`;
  const name = displayName(post.author);
  const postHref = `/post/${post.id}`;
  return (
    <article aria-label={`Post by ${name}`} className="post-card">
      {/* What every reader sees alike, rendered once on the server for all of them (decision 0380). */}
      <SharedMarkup sharedKey={() => cardBodyKey(post)} className="contents">
        <PostCardBody post={post} name={name} postHref={postHref} />
      </SharedMarkup>
      {/*
        Decision 0170: the owner's status buttons on their own listing cards; decision 0440:
        on anyone else's listing, the buyer's Send Message in plain sight. Same test as the post page's
        (offersMessageButton): a top-level listing, not sponsored (a 'new user' post never gets here).
      */}
      {post.parentId === null &&
      !post.sponsored &&
      (isListingPost(post) || (post.ownedByViewer && post.listing.status !== "available")) ? (
        <CardListingActions post={post} />
      ) : null}
      {post.sponsored ? (
        <div className="mt-3">
          <SponsoredCta postId={post.id} sponsorship={post.sponsored} authorUsername={post.author.username} />
        </div>
      ) : null}
      <footer className="mt-1">
        {/* The reader's own part, shared by readers in the same state (decision 0390). */}
        <SharedMarkup
          sharedKey={() => (serverActionsMarkup ? cardActionsKey(post, returnTo) : null)}
          className="contents"
          markup={() =>
            serverActionsMarkup
              ? hydratedLaterMarkup(
                  <serverActionsMarkup.PostActionsMarkup
                    post={post}
                    commentHref={serverActionsMarkup.commentHref(post.id, false)}
                    returnTo={returnTo}
                  />,
                )
              : null
          }
        >
          <PostActions post={post} />
        </SharedMarkup>
      </footer>
    </article>
  );
}

/**
 * A card's byline, category, listing, text and first photo: from the post alone, the same for
 * every reader (the reader's own parts, Save and the owner's buttons, come after it).
 */
function PostCardBody({
  post,
  name,
  postHref,
}: {
  post: PostCardProps["post"];
  name: string;
  postHref: string;
}) {
  return (
    <>
      <header className="flex items-start gap-3">
        <PostByline author={post.author} date={post.createdAt} postHref={postHref} />
        {post.sponsored ? (
          <span className="shrink-0 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-800">
            Sponsored
          </span>
        ) : null}
      </header>
      {post.rootId ? (
        <p className="mt-2 text-sm text-zinc-500">
          Replying in{" "}
          <ListLink to={`/post/${post.rootId}`} className="font-medium text-brand-700 hover:underline">
            a thread
          </ListLink>
        </p>
      ) : null}
      {/* Decision 0441: a listing's price and status come first, large, as in a shop. */}
      <ListingSummary listing={post.listing} className="mt-3" />
      {post.category ? (
        <div className="mt-2">
          <CategoryLabel value={post.category} />
        </div>
      ) : null}
      {post.text ? <PostText text={post.text} className="mt-2" /> : null}
      {post.firstMedia ? (
        <div className="mt-3">
          <FirstMedia media={post.firstMedia} count={post.imgCount} authorName={name} postHref={postHref} />
        </div>
      ) : null}
    </>
  );
}

/**
 * Everything PostCardBody shows, as SharedMarkup's key: the post's fields it reads, and its age
 * as the server writes it (decision 0380).
 */
function cardBodyKey(post: PostCardProps["post"]): string {
  return JSON.stringify([
    formatAge(post.createdAt, new Date(), "UTC"),
    post.id,
    post.author,
    post.createdAt,
    post.sponsored ? 1 : 0,
    post.rootId,
    post.category,
    post.listing,
    textKey(post.text),
    post.firstMedia,
    post.imgCount,
  ]);
}

/** A number for each text the server shares between pages (frozen: its content never changes). */
const sharedTextNumbers = new WeakMap<object, number>();
let sharedTextsNumbered = 0;

/**
 * A card's text in its key: a shared text (server/posts/text-views.ts keeps each stored text's
 * views once, frozen) by a number of its own, a few bytes instead of the whole text written out
 * and then hashed for every card of every page; any other text as itself.
 */
function textKey(text: PostCardProps["post"]["text"]): PostCardProps["post"]["text"] | number {
  if (text === null || !Object.isFrozen(text)) return text;
  const found = sharedTextNumbers.get(text);
  if (found !== undefined) return found;
  sharedTextsNumbered += 1;
  sharedTextNumbers.set(text, sharedTextsNumbered);
  return sharedTextsNumbered;
}

/** The longest page address a card's actions are shared for; longer ones (only typed by hand) render in place. */
const SHARED_RETURN_TO_MAX = 200;

/**
 * Everything a card's action row shows before the page runs (PostActionsMarkup), as SharedMarkup's
 * key: the counts, whether this reader saved the post, and the page its Save form returns to.
 */
function cardActionsKey(post: PostActionsPost, returnTo: string): string | null {
  if (returnTo.length > SHARED_RETURN_TO_MAX) return null;
  return JSON.stringify([
    post.id,
    post.type,
    post.parentId,
    post.commentCount,
    post.saveCount,
    post.savedByViewer,
    post.ownedByViewer,
    post.hiddenBanner,
    returnTo,
  ]);
}
