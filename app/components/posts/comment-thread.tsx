import { useState } from "react";
import { Link } from "react-router";
import { useReport } from "~/app/components/moderation/use-report";
import { Avatar } from "~/app/components/ui/avatar";
import { FlagIcon } from "~/app/components/ui/icons";
import { REPORT_MESSAGES } from "~/server/moderation/rules.shared";
import type { CommentView } from "~/server/posts/views";
import { CommentComposer } from "./comment-composer";
import { HiddenBanner } from "./hidden-banner";
import { useCommentLinkClick } from "./post-actions";
import { actionButtonClass } from "./post-actions-markup";
import { PostAge } from "./post-age";
import { VerifiedBadge } from "./post-card";
import { displayName } from "./post-format";
import { ReplyIcon, TrashIcon } from "./post-icons";
import { PostMedia } from "./post-media";
import { DeletePostModal } from "./post-more-menu";
import { PostText } from "./post-text";

/** Deeper replies stop indenting, so a long thread stays readable at 390 px. */
const MAX_INDENT_DEPTH = 3;

const smallActionClass = `${actionButtonClass({ small: true })} -my-1.5`;

interface CommentItemProps {
  comment: CommentView;
  depth: number;
  /** The page's post: delete forms post to its action and come back to it. */
  pagePostId: string;
}

function CommentItem({ comment, depth, pagePostId }: CommentItemProps) {
  const [replying, setReplying] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const report = useReport();
  const name = displayName(comment.author);
  const profileHref = `/${comment.author.username}`;

  const onReply = useCommentLinkClick(() => setReplying((open) => !open));

  return (
    <li id={`comment-${comment.id}`} className="scroll-mt-20">
      <article aria-label={`Comment by ${name}`} className="flex gap-3 py-3">
        <Link to={profileHref} tabIndex={-1} aria-hidden="true" className="shrink-0">
          <Avatar person={comment.author} size="sm" />
        </Link>
        <div className="min-w-0 flex-1">
          <div className="flex min-w-0 items-center gap-1 text-sm leading-tight">
            <Link to={profileHref} className="truncate font-semibold text-zinc-900 hover:underline">
              {name}
            </Link>
            <VerifiedBadge badge={comment.author.badge} />
            <span aria-hidden="true" className="text-zinc-400">
              ·
            </span>
            <PostAge date={comment.createdAt} className="shrink-0 text-zinc-500" />
          </div>
          {/* Decision 0546: only its author is given a hidden comment. */}
          {comment.hiddenBanner ? <HiddenBanner text={comment.hiddenBanner} className="mt-1" /> : null}
          {comment.text ? <PostText text={comment.text} className="mt-1" /> : null}
          {comment.media.length > 0 ? (
            <div className="mt-2">
              <PostMedia media={comment.media} authorName={name} size="small" />
            </div>
          ) : null}
          <div className="mt-1 -ml-2.5 flex items-center gap-1">
            <Link
              to={`/create/comment/${comment.id}?goBack=detail`}
              onClick={onReply}
              aria-expanded={replying}
              className={smallActionClass}
            >
              <ReplyIcon className="size-4" />
              Reply
            </Link>
            {comment.ownedByViewer ? (
              <button type="button" onClick={() => setDeleting(true)} className={smallActionClass}>
                <TrashIcon className="size-4" />
                Delete
              </button>
            ) : (
              // Decision 0540: someone else's comment can be reported (visitors are asked to sign in).
              <button
                type="button"
                onClick={() =>
                  report.open({ kind: "comment", id: comment.id, action: `/post/${pagePostId}` })
                }
                aria-label={`Report comment by ${name}`}
                className={smallActionClass}
              >
                <FlagIcon className="size-4" />
                {REPORT_MESSAGES.menuItem}
              </button>
            )}
          </div>
          {report.dialog}
          {replying ? (
            <div className="mt-2">
              <CommentComposer postId={comment.id} autoFocus compact onSent={() => setReplying(false)} />
            </div>
          ) : null}
        </div>
      </article>
      {comment.replies.length > 0 ? (
        <ol
          aria-label={`Replies to ${name}`}
          className={depth < MAX_INDENT_DEPTH ? "ml-4 border-l-2 border-zinc-100 pl-3 md:ml-5 md:pl-4" : ""}
        >
          {comment.replies.map((reply) => (
            <CommentItem key={reply.id} comment={reply} depth={depth + 1} pagePostId={pagePostId} />
          ))}
        </ol>
      ) : null}
      {comment.ownedByViewer ? (
        <DeletePostModal
          open={deleting}
          onOpenChange={setDeleting}
          postId={comment.id}
          kind="comment"
          action={`/post/${pagePostId}`}
        />
      ) : null}
    </li>
  );
}

/**
 * The comments below a post (spec 2 §2, §7 'Replies … ordered by createdAt
 * ascending, recursively'): each with its author, age, text and media, a Reply
 * that opens a comment box under it, and Delete for its author ('Delete Comment?') or Report
 * for everyone else (decision 0540).
 */
export function CommentThread({ comments, pagePostId }: { comments: CommentView[]; pagePostId: string }) {
  return (
    <ol aria-label="Comments" className="flex flex-col divide-y divide-zinc-100">
      {comments.map((comment) => (
        <CommentItem key={comment.id} comment={comment} depth={0} pagePostId={pagePostId} />
      ))}
    </ol>
  );
}
