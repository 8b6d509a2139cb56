import type { FormEvent } from "react";
import { Link, useRevalidator } from "react-router";
import { Avatar } from "~/app/components/ui/avatar";
import { useToast } from "~/app/components/ui/toaster";
import { useHydrated } from "~/app/lib/hydrated";
import { useRootData } from "~/app/lib/root-data";
import { participationRefusal } from "~/server/accounts/gates.shared";
import { POST_MESSAGES } from "~/server/posts/post-rules.shared";
import { useComposer } from "./composer-context";
import { DraftFields, useDraft } from "./composer-draft";
import { createCommentHref, refusalHref } from "./composer-targets";
import { UploadProgressModal } from "./upload-progress-modal";

export interface CommentComposerProps {
  /** The parent: a post or a comment. */
  postId: string;
  autoFocus?: boolean;
  /** After 'Your reply was sent': the new comment and its thread's post. */
  onSent?(sent: { id: string; rootId: string }): void;
  /** One line with a small avatar (replies inside a thread). */
  compact?: boolean;
}

/**
 * spec 2 §2, §5: 'Write a comment...' with the same 500 rule; 'Your reply was
 * sent'. Members who may not comment yet see the box as a button that opens
 * their prompt (the sign-in modal with reason 'comment', the school prompt…).
 * Before the script runs, the box is a link to the full-page composer.
 */
export function CommentComposer({
  postId,
  autoFocus = false,
  onSent,
  compact = false,
}: CommentComposerProps) {
  const { viewer, campus } = useRootData();
  const { showRefusal } = useComposer();
  const hydrated = useHydrated();
  const refusal = participationRefusal(viewer, "comment");
  if (!hydrated || refusal) {
    const href = refusal
      ? refusalHref(refusal, {
          campusId: viewer?.campusId ?? campus.id,
          generic: campus.generic,
          setUpOrigin: "comment",
          postId,
        })
      : createCommentHref(postId);
    return (
      <Link
        to={href}
        onClick={(event) => {
          if (!refusal || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          showRefusal(refusal, { postId });
        }}
        className={`flex items-center gap-3 rounded-2xl border border-zinc-200 bg-white hover:border-zinc-300 ${compact ? "p-2" : "p-3"}`}
      >
        <Avatar person={viewer} size={compact ? "sm" : "md"} />
        <span className="min-w-0 flex-1 truncate text-[15px] text-zinc-500">Write a comment...</span>
      </Link>
    );
  }
  return <CommentForm postId={postId} autoFocus={autoFocus} onSent={onSent} compact={compact} />;
}

function CommentForm({ postId, autoFocus = false, onSent, compact = false }: CommentComposerProps) {
  const toast = useToast();
  const revalidator = useRevalidator();
  const draft = useDraft({
    actionPath: createCommentHref(postId),
    withCategory: false,
    refusalOrigin: { postId },
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const sent = await draft.send();
    if (!sent) return;
    draft.clear();
    toast.show({ message: POST_MESSAGES.replySent, type: "okay" });
    void revalidator.revalidate();
    onSent?.({ id: sent.postId, rootId: sent.rootId ?? postId });
  };

  return (
    <form
      onSubmit={onSubmit}
      aria-label="Write a comment"
      noValidate
      className={`rounded-2xl border border-zinc-200 bg-white ${compact ? "p-2" : "p-3"}`}
    >
      <DraftFields
        draft={draft}
        placeholder="Write a comment..."
        label="Comment text"
        autoFocus={autoFocus}
        minHeightClass={compact ? "min-h-7" : "min-h-14"}
        compact={compact}
        withCategory={false}
        submitLabel="Reply"
      />
      <UploadProgressModal processing={draft.processing} progress={draft.progress} />
    </form>
  );
}
