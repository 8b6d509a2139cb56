import { useState } from "react";
import { Form, useFetcher, useNavigate, useNavigation } from "react-router";
import { useSendMessage } from "~/app/components/chats/send-message-button";
import { useReport } from "~/app/components/moderation/use-report";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { CheckIcon, FlagIcon, LinkIcon, lineIcons, MessageIcon } from "~/app/components/ui/icons";
import { MenuItem, MoreOptionsMenu } from "~/app/components/ui/menu-item";
import { Modal } from "~/app/components/ui/modal";
import { REPORT_MESSAGES } from "~/server/moderation/rules.shared";
import type { ListingStatus } from "~/server/posts/listing.shared";
import { STATUS_ACTIONS } from "~/server/posts/listing.shared";
import { type ListingActionData, nextStatuses, offersBoost } from "./listing-actions";
import { useCopyPostLink } from "./post-actions";
import { RocketIcon, TrashIcon } from "./post-icons";

// Decision 0640: drawn here (Lucide's pencil), so only the menu's chunk carries it.
const { PencilIcon } = lineIcons({
  Pencil: [
    {
      d: "M21.174 6.812a1 1 0 0 0-3.986-3.987L3.842 16.174a2 2 0 0 0-.5.83l-1.321 4.352a.5.5 0 0 0 .623.622l4.353-1.32a2 2 0 0 0 .83-.497zM15 5l4 4",
    },
  ],
});

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
  /** Decision 0170: the post's listing status, for the owner's 'Mark as …' items (top-level posts). */
  listingStatus?: ListingStatus;
  /** The author, whom Send Message writes to. */
  authorUsername: string;
}

/**
 * The post page's more menu (spec 2 §2 'Post detail'): Copy link; Send Message
 * (not on one's own post; opens the chat with the author, sharing the post); Boost Post
 * (owner; the boost flow comes with the ads issue, whose /ads page says so — decision 0097);
 * Delete (owner) → 'Delete Post?'. Decision 0170: the owner's 'Mark as reserved' / 'Mark as sold' /
 * 'Mark as available'. Decision 0540: Report (not on one's own) opens the report dialog. Decision
 * 0640: Edit (owner, top-level posts) opens /post/{id}/edit.
 */
export function PostMoreMenu({ postId, kind, own, listingStatus, authorUsername }: PostMoreMenuProps) {
  const listing = useFetcher<ListingActionData>();
  useActionToast(listing.data?.toast);
  const navigate = useNavigate();
  const sendMessage = useSendMessage();
  const { copy, banner } = useCopyPostLink();
  const [deleting, setDeleting] = useState(false);
  const report = useReport();
  return (
    <>
      <MoreOptionsMenu
        label="More options for this post"
        triggerClassName="flex size-11 shrink-0 items-center justify-center rounded-full text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-brand-600 data-[state=open]:bg-zinc-100"
        contentClassName="w-[min(16rem,calc(100vw-1.5rem))]"
        sideOffset={6}
      >
        <MenuItem icon={<LinkIcon className="size-5" />} onSelect={() => void copy(postId)}>
          Copy link
        </MenuItem>
        {own ? null : (
          <MenuItem
            icon={<MessageIcon className="size-5" />}
            // spec 2 §5: a visitor gets the sign-in modal; the chat shares this post (spec 2 §3 postId).
            onSelect={() => sendMessage.start(authorUsername, postId)}
          >
            Send Message
          </MenuItem>
        )}
        {/* Decision 0640: the owner edits the listing with the composer's fields. */}
        {own && kind === "post" ? (
          <MenuItem
            icon={<PencilIcon className="size-5" />}
            onSelect={() => navigate(`/post/${postId}/edit`)}
          >
            Edit
          </MenuItem>
        ) : null}
        {/* Decision 0170: the owner marks the listing reserved, sold or available. */}
        {own && kind === "post" && listingStatus
          ? nextStatuses(listingStatus).map((status) => (
              <MenuItem
                key={status}
                icon={<CheckIcon className="size-5" />}
                onSelect={() =>
                  listing.submit(
                    { intent: "set-listing-status", status },
                    { method: "post", action: `/post/${postId}` },
                  )
                }
              >
                {STATUS_ACTIONS[status]}
              </MenuItem>
            ))
          : null}
        {/* Decision 0442: not offered on a reserved or sold listing. */}
        {own && kind === "post" && (listingStatus === undefined || offersBoost(listingStatus)) ? (
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
        ) : (
          <MenuItem
            icon={<FlagIcon className="size-5" />}
            onSelect={() => report.open({ kind, id: postId, action: `/post/${postId}` })}
          >
            {REPORT_MESSAGES.menuItem}
          </MenuItem>
        )}
      </MoreOptionsMenu>
      {banner}
      {report.dialog}
      {sendMessage.prompt}
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
