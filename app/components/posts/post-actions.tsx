import {
  type FormEvent,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import { useFetcher, useLocation } from "react-router";
import { useActionToast } from "~/app/components/auth/action-feedback";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { DeferredMenu, useDropdownMenu } from "~/app/components/ui/deferred-menu";
import { BookmarkIcon, LinkIcon, ShareIcon } from "~/app/components/ui/icons";
import { ListLink } from "~/app/components/ui/list-link";
import { useToast } from "~/app/components/ui/toaster";
import { trackPostAction } from "~/app/lib/analytics";
import { useHydrated } from "~/app/lib/hydrated";
import { useRootData } from "~/app/lib/root-data";
import type { ToastInput } from "~/app/lib/toast";
import { isWideScreen } from "~/app/lib/wide-screen";
import { SOMETHING_WENT_WRONG } from "~/server/errors";
import type { PostSummary } from "~/server/posts/views";
import { BookmarkFilledIcon, CommentIcon } from "./post-icons";

/** What the post route's action answers a fetcher (app/routes/posts/post.tsx). */
export interface PostActionData {
  intent: string;
  ok: boolean;
  /** toggle-save: the new state and count. */
  saved?: boolean;
  saveCount?: number;
  /** What to tell the user ('Post saved.', or a refusal's message). */
  toast?: ToastInput | null;
}

/** spec 2 §9: 'link-copied banner 2 s'. */
export const LINK_COPIED_BANNER_MS = 2000;
/** spec 2 §2 'Modals' Link Copied! text. */
export const LINK_COPIED_TEXT = "Link Copied! You can share this link with anyone.";
/** spec 2 §8. */
export const COPIED_TO_CLIPBOARD = "Copied to clipboard";

/** A post's address on this campus's host. */
export function postUrl(postId: string): string {
  return `${window.location.origin}/post/${postId}`;
}

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Older browsers and insecure origins: the selection way.
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error("copy refused");
}

/**
 * 'Copy link' of the share menus (spec 2 §2, §8): the 'Link Copied! …' banner for
 * 2 s and the 'Copied to clipboard' toast (okay signed in, success signed out).
 * Render `banner` somewhere in the component that calls `copy`.
 */
export function useCopyPostLink(): { copy(postId: string): Promise<void>; banner: ReactNode } {
  const { viewer } = useRootData();
  const toast = useToast();
  const [shown, setShown] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(
    async (postId: string) => {
      try {
        await writeClipboard(postUrl(postId));
      } catch {
        toast.show({ message: SOMETHING_WENT_WRONG, type: "danger" });
        return;
      }
      // spec 2 §4 'Analytics tracking': counted only for a post whose ad runs (decision 0273).
      trackPostAction(postId, "copied_link");
      setShown(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setShown(false), LINK_COPIED_BANNER_MS);
      toast.show({ message: COPIED_TO_CLIPBOARD, type: viewer ? "okay" : "success" });
    },
    [toast, viewer],
  );

  const banner = shown ? (
    <div
      role="status"
      className="fixed inset-x-3 bottom-[calc(5rem+env(safe-area-inset-bottom))] z-[60] mx-auto flex max-w-md items-center gap-3 rounded-2xl bg-zinc-900 px-4 py-3 text-sm font-medium text-white shadow-xl md:bottom-8"
    >
      <LinkIcon className="size-5 shrink-0 text-emerald-300" />
      {LINK_COPIED_TEXT}
    </div>
  ) : null;
  return { copy, banner };
}

/**
 * The look of a post's action buttons (44 px tall: tap targets); `active` for Saved!.
 * The shared part is one class of app.css (`post-action`): a feed page holds dozens of them.
 */
export function actionButtonClass({ active = false, small = false } = {}): string {
  const size = small ? "px-2.5 text-[13px]" : "px-3 text-sm";
  const color = active ? "text-brand-700 hover:text-brand-800" : "text-zinc-600 hover:text-zinc-900";
  return `post-action ${size} ${color}`;
}

/**
 * Save / Saved! (spec 2 §4 'Save/like'): toggles through the post route's action,
 * at once on screen (the answer confirms it). While saved the button reads
 * 'Saved!' and the count is hidden; otherwise the count links to who saved it.
 * A visitor gets the sign-in modal with reason 'like'. Without JavaScript the
 * form posts and comes back to this page.
 */
export function SaveButton({ post }: { post: Pick<PostSummary, "id" | "savedByViewer" | "saveCount"> }) {
  const { viewer } = useRootData();
  const signIn = useSignInModal();
  const hydrated = useHydrated();
  const location = useLocation();
  const fetcher = useFetcher<PostActionData>();
  // 'Post saved.' (spec 2 §8, success) or why it failed.
  useActionToast(fetcher.data?.toast);

  const settled =
    fetcher.data?.intent === "toggle-save" && fetcher.data.saved !== undefined
      ? { saved: fetcher.data.saved, count: fetcher.data.saveCount ?? post.saveCount }
      : { saved: post.savedByViewer, count: post.saveCount };
  const pending = fetcher.state !== "idle";
  const shown = pending
    ? { saved: !settled.saved, count: Math.max(0, settled.count + (settled.saved ? -1 : 1)) }
    : settled;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // spec 2 §4: 'Logged-out users get the sign-in modal'.
    if (!viewer) signIn.open("like");
    else void fetcher.submit(event.currentTarget);
  }

  return (
    <div className="flex items-center">
      {/* A plain form the fetcher submits (decision 0351: fetcher.Form costs every card its own form component). */}
      <form method="post" action={`/post/${post.id}`} onSubmit={onSubmit} data-discover="true">
        <input type="hidden" name="intent" value="toggle-save" />
        {/* Only a plain HTML form needs to be sent back; a fetcher stays on the page. */}
        {hydrated ? null : (
          <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
        )}
        <button type="submit" disabled={pending} className={actionButtonClass({ active: shown.saved })}>
          {shown.saved ? (
            <BookmarkFilledIcon className="size-5 shrink-0" />
          ) : (
            <BookmarkIcon className="size-5 shrink-0" />
          )}
          {shown.saved ? "Saved!" : "Save"}
        </button>
      </form>
      {!shown.saved && shown.count > 0 ? (
        <ListLink to={`/post/${post.id}/likes`} className="save-count">
          {shown.count}
          <span className="sr-only">{` ${shown.count === 1 ? "person saved" : "people saved"} this post`}</span>
        </ListLink>
      ) : null}
    </div>
  );
}

/** Share → Copy link (spec 2 §2 'Post detail' actions). */
export function ShareMenu({ postId }: { postId: string }) {
  const { copy, banner } = useCopyPostLink();
  return (
    <>
      <DeferredMenu
        triggerClassName={actionButtonClass()}
        trigger={
          <>
            <ShareIcon className="size-5 shrink-0" />
            Share
          </>
        }
      >
        <ShareMenuContent onCopy={() => void copy(postId)} />
      </DeferredMenu>
      {banner}
    </>
  );
}

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

interface PostActionsProps {
  post: Pick<PostSummary, "id" | "savedByViewer" | "saveCount" | "commentCount" | "parentId" | "type">;
  /**
   * The post page: Comment focuses its comment box (wide screens) instead of
   * opening the post. The link still leads to /create/comment/{id} on phones and without JavaScript.
   */
  onComment?(): void;
}

/**
 * The click of a Comment or Reply link (spec 2 §2, §5): a visitor gets the sign-in modal; at
 * 769 px and below the link's own page (the comment creator) opens; wider, `openInline` opens the
 * composer in place. Without `openInline`, and for a modified click (a new tab), the link is followed.
 */
export function useCommentLinkClick(openInline: (() => void) | undefined) {
  const { viewer } = useRootData();
  const signIn = useSignInModal();
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (!openInline) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    if (!viewer) {
      // spec 2 §5: 'Signed-out users who … comment … get the sign-in modal'.
      event.preventDefault();
      signIn.open("comment");
      return;
    }
    if (!isWideScreen()) return;
    event.preventDefault();
    openInline();
  };
}

/** The action row of a post: Comment, Save/Saved! with count, Share (spec 2 §2). */
export function PostActions({ post, onComment }: PostActionsProps) {
  const href = onComment ? `/create/comment/${post.id}?goBack=detail` : `/post/${post.id}`;
  const onCommentClick = useCommentLinkClick(onComment);
  // Comments cannot be saved (server/posts/posts.ts toggleSave): their row has Comment and Share.
  const savable = post.type === "post" && post.parentId === null;
  return (
    <div className="-mx-2 flex items-center justify-between gap-1 xs:justify-start xs:gap-4">
      <ListLink to={href} onClick={onCommentClick} className={actionButtonClass()}>
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
      {savable ? <SaveButton post={post} /> : null}
      <ShareMenu postId={post.id} />
    </div>
  );
}
