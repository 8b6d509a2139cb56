import { useEffect, useRef } from "react";
import { useFetcher, useLocation } from "react-router";
import type { PostActionData } from "~/app/components/posts/post-actions";
import { DELETE_POST_TEXT } from "~/app/components/posts/post-more-menu";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { Modal } from "~/app/components/ui/modal";

/**
 * 'Delete Post?' from a media tile (spec 2 §2 'Modals'). It sends 'delete-post'
 * to the post route's action with `returnTo` = this page, so the grid stays
 * where it is: the action answers with a redirect back here carrying 'Your post
 * was deleted' (spec 2 §8, success), and the tile is dropped. A refusal comes
 * back as data with its toast, and the tile stays.
 */
export function DeletePostModal({
  postId,
  open,
  onOpenChange,
  onDeleted,
}: {
  postId: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  onDeleted(): void;
}) {
  const fetcher = useFetcher<PostActionData>();
  const location = useLocation();
  useActionToast(fetcher.data?.toast);
  const wasBusy = useRef(false);

  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (busy) {
      wasBusy.current = true;
      return;
    }
    if (!wasBusy.current) return;
    wasBusy.current = false;
    // A redirect leaves no data behind; a refusal answers { ok: false, toast }.
    if (fetcher.data?.ok === false) return;
    onOpenChange(false);
    onDeleted();
  }, [busy, fetcher.data, onOpenChange, onDeleted]);

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Delete Post?"
      description={DELETE_POST_TEXT}
      dismissible={!busy}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button
            variant="danger"
            processing={busy}
            onClick={() =>
              fetcher.submit(
                { intent: "delete-post", returnTo: `${location.pathname}${location.search}` },
                { method: "post", action: `/post/${postId}`, preventScrollReset: true },
              )
            }
          >
            Delete
          </Button>
        </>
      }
    />
  );
}
