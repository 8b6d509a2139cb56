import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useState } from "react";
import { Form, useNavigate, useNavigation } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { Button } from "~/app/components/ui/button";
import { LinkIcon, MessageIcon } from "~/app/components/ui/icons";
import { MenuItem } from "~/app/components/ui/menu-item";
import { Modal } from "~/app/components/ui/modal";
import { useRootData } from "~/app/lib/root-data";
import { useCopyPostLink } from "./post-actions";
import { MoreIcon, RocketIcon, TrashIcon } from "./post-icons";

/** spec 2 §2 'Modals' Delete Post? text, character for character. */
export const DELETE_POST_TEXT =
  "This can't be undone and it will be removed from your profile, the main feed, and from any search results.";

interface DeletePostModalProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The post (or comment) to delete, posted to its page's action. */
  postId: string;
  kind: "post" | "comment";
  /** Where the form posts: a /post/{id} page (its action deletes and answers). */
  action: string;
  /**
   * Where to go after a post is deleted (a local path, e.g. '/media' for the grid);
   * /home when not given (spec 2 §2: the post page goes to the feed).
   */
  returnTo?: string;
}

/**
 * 'Delete Post?' / 'Delete Comment?' (spec 2 §2 'Modals'): a plain form to the
 * post page's action, which deletes through the domain and answers with the
 * toast ('Your post was deleted' → /home, or 'Comment Removed').
 */
export function DeletePostModal({
  open,
  onOpenChange,
  postId,
  kind,
  action,
  returnTo,
}: DeletePostModalProps) {
  const navigation = useNavigation();
  const intent = kind === "post" ? "delete-post" : "delete-comment";
  const sending =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData.get("postId") === postId;
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={kind === "post" ? "Delete Post?" : "Delete Comment?"}
      description={kind === "post" ? DELETE_POST_TEXT : "This can't be undone."}
      dismissible={!sending}
      footer={
        <>
          <Button variant="secondary" disabled={sending} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Form method="post" action={action} preventScrollReset>
            <input type="hidden" name="intent" value={intent} />
            <input type="hidden" name="postId" value={postId} />
            {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
            <Button type="submit" variant="danger" processing={sending} className="w-full xs:w-auto">
              Delete
            </Button>
          </Form>
        </>
      }
    />
  );
}

interface PostMoreMenuProps {
  postId: string;
  /** The post page's own post is a comment when opened from a thread. */
  kind: "post" | "comment";
  own: boolean;
}

/**
 * The post page's more menu (spec 2 §2 'Post detail'): Copy link; Send Message
 * (not on one's own post; the chat comes with the messages issue, /messages for
 * now); Boost Post (owner; the boost flow comes with the ads issue, whose /ads
 * page says so — decision 0097); Delete (owner) → 'Delete Post?'.
 */
export function PostMoreMenu({ postId, kind, own }: PostMoreMenuProps) {
  const { viewer } = useRootData();
  const navigate = useNavigate();
  const signIn = useSignInModal();
  const { copy, banner } = useCopyPostLink();
  const [deleting, setDeleting] = useState(false);
  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          aria-label="More options for this post"
          className="flex size-11 shrink-0 items-center justify-center rounded-full text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-brand-600 data-[state=open]:bg-zinc-100"
        >
          <MoreIcon className="size-5" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            collisionPadding={12}
            className="menu-content z-50 w-[min(16rem,calc(100vw-1.5rem))] rounded-2xl border border-zinc-200 bg-white p-2 shadow-xl"
          >
            <MenuItem icon={<LinkIcon className="size-5" />} onSelect={() => void copy(postId)}>
              Copy link
            </MenuItem>
            {own ? null : (
              <MenuItem
                icon={<MessageIcon className="size-5" />}
                onSelect={() => {
                  // spec 2 §5: a visitor who messages gets the sign-in modal.
                  if (viewer) navigate("/messages");
                  else signIn.open("message");
                }}
              >
                Send Message
              </MenuItem>
            )}
            {own && kind === "post" ? (
              <MenuItem
                icon={<RocketIcon className="size-5" />}
                onSelect={() => navigate(`/post/${postId}/boost`)}
              >
                Boost Post
              </MenuItem>
            ) : null}
            {own ? (
              <MenuItem icon={<TrashIcon className="size-5" />} danger onSelect={() => setDeleting(true)}>
                Delete
              </MenuItem>
            ) : null}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {banner}
      {own ? (
        <DeletePostModal
          open={deleting}
          onOpenChange={setDeleting}
          postId={postId}
          kind={kind}
          action={`/post/${postId}`}
        />
      ) : null}
    </>
  );
}
