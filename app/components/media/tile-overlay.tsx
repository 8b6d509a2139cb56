import { useState } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { newMessageHref, useSendMessage } from "~/app/components/chats/send-message-button";
import { type PostActionData, useCopyPostLink } from "~/app/components/posts/post-actions";
import { formatAgeAgo } from "~/app/components/posts/post-format";
import { TrashIcon } from "~/app/components/posts/post-icons";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { DeferredMenu } from "~/app/components/ui/deferred-menu";
import { Icon, LinkIcon, MessageIcon, ShareIcon } from "~/app/components/ui/icons";
import { MenuContent, MenuItem } from "~/app/components/ui/menu-item";
import { useHydrated } from "~/app/lib/hydrated";
import { useRootData } from "~/app/lib/root-data";
import type { MediaTileData } from "~/server/posts/media-tiles";
import { DeletePostModal } from "./delete-post-modal";

/** The save control's heart, filled once saved. */
function HeartIcon({ filled }: { filled: boolean }) {
  return (
    <Icon className="size-5" style={filled ? { fill: "currentColor" } : undefined}>
      <path d="M19 14c1.49-1.46 3-3.21 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.76 0-3 .5-4.5 2-1.5-1.5-2.74-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4.05 3 5.5l7 7Z" />
    </Icon>
  );
}

const controlClass =
  "pointer-events-auto flex h-9 min-w-9 items-center justify-center gap-1.5 rounded-full bg-white/15 px-2.5 text-sm font-semibold text-white backdrop-blur-sm hover:bg-white/30 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-white";

/**
 * spec 2 §2 'Tile hover overlay (wide screens)': the post's age, Message (not on
 * one's own post), like (save) and a share menu with Copy link and, for the
 * owner, Delete. Only above 1000 px (`lg:`); it shows on hover and whenever
 * focus is inside the tile, so every control is reachable with Tab.
 */
export function TileOverlay({ tile, onDeleted }: { tile: MediaTileData; onDeleted(): void }) {
  const { viewer } = useRootData();
  const signIn = useSignInModal();
  const sendMessage = useSendMessage();
  const { copy, banner } = useCopyPostLink();
  const hydrated = useHydrated();
  const location = useLocation();
  const save = useFetcher<PostActionData>();
  // 'Post saved.' (spec 2 §8, success), or why it was refused.
  useActionToast(save.data?.toast);
  const [menuOpen, setMenuOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  // spec 2 §4 'Save then Saved!': shown at once, confirmed by the action's answer.
  const answered = save.data?.intent === "toggle-save" && save.data.saved !== undefined;
  const known = {
    saved: answered ? (save.data?.saved ?? tile.savedByViewer) : tile.savedByViewer,
    saveCount: answered ? (save.data?.saveCount ?? tile.saveCount) : tile.saveCount,
  };
  const pending = save.formData !== undefined;
  const saved = pending ? !known.saved : known.saved;
  const saveCount = pending ? Math.max(0, known.saveCount + (saved ? 1 : -1)) : known.saveCount;

  const postPath = `/post/${tile.id}`;

  // Kept visible while its menu or dialog is open, so the menu stays attached to a visible button.
  const forced = menuOpen || confirmDelete;
  return (
    <>
      {sendMessage.prompt}
      <div
        className={`pointer-events-none absolute inset-0 z-20 hidden flex-col justify-between bg-gradient-to-b from-zinc-950/55 via-zinc-950/10 to-zinc-950/65 p-2.5 transition-opacity duration-150 lg:flex ${
          forced ? "opacity-100" : "opacity-0 group-focus-within:opacity-100 group-hover:opacity-100"
        }`}
      >
        <p className="text-xs font-semibold text-white drop-shadow">
          <time dateTime={tile.createdAt.toISOString()} suppressHydrationWarning>
            {formatAgeAgo(tile.createdAt, new Date())}
          </time>
        </p>
        <div className="flex items-center gap-1.5">
          {tile.ownedByViewer ? null : (
            <Link
              to={newMessageHref(tile.author.username, tile.id)}
              onClick={(event) => {
                // spec 2 §5: a visitor gets the sign-in modal, a member without the school its prompt.
                event.preventDefault();
                sendMessage.start(tile.author.username, tile.id);
              }}
              className={controlClass}
            >
              <MessageIcon className="size-5" />
              <span className="sr-only">Message {tile.author.firstName}</span>
            </Link>
          )}
          <save.Form
            method="post"
            action={postPath}
            onSubmit={(event) => {
              if (viewer) return;
              event.preventDefault();
              signIn.open("like");
            }}
          >
            <input type="hidden" name="intent" value="toggle-save" />
            {/* Only a plain HTML form needs to be sent back; a fetcher stays on the page. */}
            {hydrated ? null : (
              <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
            )}
            <button type="submit" aria-pressed={saved} disabled={pending} className={controlClass}>
              <HeartIcon filled={saved} />
              <span className="sr-only">{saved ? "Saved" : "Save"}</span>
              {/* spec 2 §4: the count is hidden while saved. */}
              {saved ? null : <span aria-hidden="true">{saveCount}</span>}
            </button>
          </save.Form>
          <DeferredMenu
            open={menuOpen}
            onOpenChange={setMenuOpen}
            triggerClassName={`${controlClass} ml-auto`}
            trigger={
              <>
                <ShareIcon className="size-5" />
                <span className="sr-only">Share</span>
              </>
            }
          >
            <MenuContent className="w-56" sideOffset={6}>
              <MenuItem icon={<LinkIcon className="size-5" />} onSelect={() => void copy(tile.id)}>
                Copy link
              </MenuItem>
              {tile.ownedByViewer ? (
                <MenuItem
                  icon={<TrashIcon className="size-5" />}
                  onSelect={() => setConfirmDelete(true)}
                  danger
                >
                  Delete
                </MenuItem>
              ) : null}
            </MenuContent>
          </DeferredMenu>
        </div>
      </div>
      {/* Outside the overlay, which is transparent until hovered. */}
      {banner}
      {tile.ownedByViewer ? (
        <DeletePostModal
          postId={tile.id}
          open={confirmDelete}
          onOpenChange={setConfirmDelete}
          onDeleted={onDeleted}
        />
      ) : null}
    </>
  );
}
