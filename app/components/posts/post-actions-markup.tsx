import type { FormEvent, MouseEvent, ReactNode } from "react";
import { DeferredMenu, useDropdownMenu } from "~/app/components/ui/deferred-menu";
import { BookmarkIcon, FlagIcon, LinkIcon, MoreIcon, ShareIcon } from "~/app/components/ui/icons";
import { ListLink } from "~/app/components/ui/list-link";
import { MenuContent, MenuItem } from "~/app/components/ui/menu-item";
import type { PostSummary } from "~/server/posts/views";
import { BookmarkFilledIcon, CommentIcon } from "./post-icons";

// The elements of a post's action row, apart from what they do (app/components/posts/post-actions.tsx
// gives them their behaviour): from props alone, so a feed's cards can share their HTML between
// readers in the same state (SharedMarkup, decision 0390).

export type PostActionsPost = Pick<
  PostSummary,
  | "id"
  | "savedByViewer"
  | "saveCount"
  | "commentCount"
  | "parentId"
  | "type"
  | "ownedByViewer"
  | "hiddenBanner"
>;

/**
 * The look of a post's action buttons (44 px tall: tap targets); `active` for Saved!.
 * The shared part is one class of app.css (`post-action`): a feed page holds dozens of them.
 */
export function actionButtonClass({ active = false, small = false } = {}): string {
  const size = small ? "px-2.5 text-[13px]" : "px-3 text-sm";
  const color = active ? "text-brand-700 hover:text-brand-800" : "text-zinc-600 hover:text-zinc-900";
  return `post-action ${size} ${color}`;
}

/** What the Save button shows: the post's own state, until the reader toggles it. */
export interface SaveShown {
  saved: boolean;
  count: number;
  /** A toggle on its way (the button waits for it). */
  pending: boolean;
}

/** Where a row's Comment leads: the post, or from the post page itself its comment creator. */
export function commentHref(postId: string, onPostPage: boolean): string {
  return onPostPage ? `/create/comment/${postId}?goBack=detail` : `/post/${postId}`;
}

export interface PostActionsMarkupProps {
  post: PostActionsPost;
  commentHref: string;
  /** The page a plain HTML form (no JavaScript yet) comes back to after a save; null once the page runs. */
  returnTo: string | null;
  /** Save's state when it differs from the post's own (a toggle made or under way). */
  save?: SaveShown;
  onCommentClick?(event: MouseEvent<HTMLAnchorElement>): void;
  onSaveSubmit?(event: FormEvent<HTMLFormElement>): void;
  onCopyLink?(): void;
  /**
   * The row of the post's own page (decision 0540): its header's menu has Report and its body the
   * hidden banner, so the row has neither; a list's card shows the '…' menu with Report on someone
   * else's post, and the author's hidden label (decision 0546).
   */
  onItsPage?: boolean;
  onReport?(): void;
  /** After Share: the 'Link Copied!' banner while it shows. */
  children?: ReactNode;
}

/** The action row of a post: Comment, Save/Saved! with count, Share (spec 2 §2). */
export function PostActionsMarkup({
  post,
  commentHref,
  returnTo,
  save = { saved: post.savedByViewer, count: post.saveCount, pending: false },
  onCommentClick,
  onSaveSubmit,
  onCopyLink,
  onItsPage = false,
  onReport,
  children,
}: PostActionsMarkupProps) {
  // Comments cannot be saved (server/posts/posts.ts toggleSave): their row has Comment and Share.
  const savable = post.type === "post" && post.parentId === null;
  return (
    <>
      {/* Decision 0546: a card of the author's hidden post says so (the post's page has its banner),
          here in the card's lazily loaded part so the feed's first load does not carry it. */}
      {post.hiddenBanner && !onItsPage ? (
        <p className="mt-2 mb-1 w-fit rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-800">
          {post.hiddenBanner}
        </p>
      ) : null}
      <div className="-mx-2 flex items-center justify-between gap-1 xs:justify-start xs:gap-4">
        <ListLink to={commentHref} onClick={onCommentClick} className={actionButtonClass()}>
          <CommentIcon className="size-5 shrink-0" />
          Comment
          {post.commentCount > 0 ? (
            <span className="text-zinc-500 tabular-nums">
              <span className="sr-only">(</span>
              {post.commentCount}
              <span className="sr-only">)</span>
            </span>
          ) : null}
        </ListLink>
        {savable ? (
          <SaveForm postId={post.id} shown={save} returnTo={returnTo} onSubmit={onSaveSubmit} />
        ) : null}
        <DeferredMenu
          triggerClassName={actionButtonClass()}
          trigger={
            <>
              <ShareIcon className="size-5 shrink-0" />
              Share
            </>
          }
        >
          <ShareMenuContent onCopy={() => onCopyLink?.()} />
        </DeferredMenu>
        {!onItsPage && !post.ownedByViewer ? (
          <DeferredMenu
            triggerLabel="More options for this post"
            triggerClassName={`${actionButtonClass()} xs:ml-auto`}
            trigger={<MoreIcon className="size-5 shrink-0" />}
          >
            <MenuContent className="w-[min(14rem,calc(100vw-1.5rem))]" sideOffset={6}>
              <MenuItem icon={<FlagIcon className="size-5" />} onSelect={() => onReport?.()}>
                {/* spec 1 §2's word, written here: importing the moderation rules would put their module
                  on every feed's first load (decision 0340). */}
                Report
              </MenuItem>
            </MenuContent>
          </DeferredMenu>
        ) : null}
        {children}
      </div>
    </>
  );
}

/**
 * Save / Saved! (spec 2 §4 'Save/like'): while saved the button reads 'Saved!' and the count is
 * hidden; otherwise the count links to who saved it. Without JavaScript the form posts and
 * comes back to `returnTo`.
 */
function SaveForm({
  postId,
  shown,
  returnTo,
  onSubmit,
}: {
  postId: string;
  shown: SaveShown;
  returnTo: string | null;
  onSubmit?(event: FormEvent<HTMLFormElement>): void;
}) {
  return (
    <div className="flex items-center">
      {/* A plain form the fetcher submits (decision 0351: fetcher.Form costs every card its own form component). */}
      <form method="post" action={`/post/${postId}`} onSubmit={onSubmit} data-discover="true">
        <input type="hidden" name="intent" value="toggle-save" />
        {returnTo === null ? null : <input type="hidden" name="returnTo" value={returnTo} />}
        <button type="submit" disabled={shown.pending} className={actionButtonClass({ active: shown.saved })}>
          {shown.saved ? (
            <BookmarkFilledIcon className="size-5 shrink-0" />
          ) : (
            <BookmarkIcon className="size-5 shrink-0" />
          )}
          {shown.saved ? "Saved!" : "Save"}
        </button>
      </form>
      {!shown.saved && shown.count > 0 ? (
        <ListLink to={`/post/${postId}/likes`} className="save-count">
          {shown.count}
          <span className="sr-only">{` ${shown.count === 1 ? "person saved" : "people saved"} this post`}</span>
        </ListLink>
      ) : null}
    </div>
  );
}

/** Share → Copy link (spec 2 §2 'Post detail' actions). */
function ShareMenuContent({ onCopy }: { onCopy(): void }) {
  const DropdownMenu = useDropdownMenu();
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content
        align="end"
        sideOffset={6}
        collisionPadding={12}
        className="menu-content z-50 w-56 rounded-2xl border border-zinc-200 bg-white p-2 shadow-xl"
      >
        <DropdownMenu.Item
          onSelect={onCopy}
          className="flex min-h-11 w-full cursor-pointer items-center gap-3 rounded-xl px-3 text-[15px] font-medium text-zinc-800 outline-none select-none data-[highlighted]:bg-zinc-100"
        >
          <LinkIcon className="size-5 shrink-0 text-zinc-500" />
          Copy link
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Portal>
  );
}
