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
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { useReport } from "~/app/components/moderation/use-report";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { LinkIcon } from "~/app/components/ui/icons";
import { useToast } from "~/app/components/ui/toaster";
import { trackPostAction } from "~/app/lib/analytics";
import { useHydrated } from "~/app/lib/hydrated";
import { useRootData } from "~/app/lib/root-data";
import type { ToastInput } from "~/app/lib/toast";
import { isWideScreen } from "~/app/lib/wide-screen";
import { SOMETHING_WENT_WRONG } from "~/server/errors.shared";
import { commentHref, PostActionsMarkup, type PostActionsPost, type SaveShown } from "./post-actions-markup";

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

interface PostActionsProps {
  post: PostActionsPost;
  /**
   * The post page: Comment focuses its comment box (wide screens) instead of
   * opening the post. The link still leads to /create/comment/{id} on phones and without JavaScript.
   */
  onComment?(): void;
  /** The post's page (/post/{id}, /media/{id}): its header's menu has Report (post-more-menu.tsx). */
  onItsPage?: boolean;
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

/**
 * Save / Saved! (spec 2 §4 'Save/like'): toggles through the post route's action, at once on
 * screen (the answer confirms it). A visitor gets the sign-in modal with reason 'like'.
 */
function useSaveToggle(post: PostActionsPost) {
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
  const shown: SaveShown = pending
    ? { saved: !settled.saved, count: Math.max(0, settled.count + (settled.saved ? -1 : 1)), pending }
    : { ...settled, pending };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // spec 2 §4: 'Logged-out users get the sign-in modal'.
    if (!viewer) signIn.open("like");
    else void fetcher.submit(event.currentTarget);
  }
  // Only a plain HTML form needs to be sent back; a fetcher stays on the page.
  const returnTo = hydrated ? null : `${location.pathname}${location.search}`;
  return { shown, returnTo, onSubmit };
}

/**
 * The action row of a post (spec 2 §2) with what its controls do. Its elements are
 * PostActionsMarkup's: a feed's cards render that alone on the server and share it (post-card.tsx).
 */
export function PostActions({ post, onComment, onItsPage = false }: PostActionsProps) {
  const onCommentClick = useCommentLinkClick(onComment);
  const save = useSaveToggle(post);
  const { copy, banner } = useCopyPostLink();
  const report = useReport();
  return (
    <PostActionsMarkup
      post={post}
      commentHref={commentHref(post.id, onComment !== undefined)}
      returnTo={save.returnTo}
      save={save.shown}
      onCommentClick={onCommentClick}
      onSaveSubmit={save.onSubmit}
      onCopyLink={() => void copy(post.id)}
      // Decision 0540: a card's '…' has Report; a post's page has it in its header's menu.
      onItsPage={onItsPage}
      onReport={() =>
        report.open({ kind: post.parentId ? "comment" : "post", id: post.id, action: `/post/${post.id}` })
      }
    >
      {banner}
      {report.dialog}
    </PostActionsMarkup>
  );
}
