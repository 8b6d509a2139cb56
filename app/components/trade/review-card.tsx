import { Link, useFetcher } from "react-router";
import { useReport } from "~/app/components/moderation/use-report";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import type { ToastInput } from "~/app/lib/toast";
import type { ReviewView } from "~/server/trade/review-reads";
import { REVIEW_MESSAGES, REVIEW_TAG_LABELS, REVIEW_TEXT_MAX } from "~/server/trade/review-rules.shared";

const day = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });

/**
 * One published review (decision 0618): stars, tags, text, the reviewer (linking to their
 * profile), the role reviewed, the date and the reply; for its subject, the private note under
 * 'Things to improve' and, once, the reply form. The Report action opens the one report dialog.
 */
export function ReviewCard({
  review,
  replyAction,
  reportAction,
}: {
  review: ReviewView;
  /** Where the reply form posts (intent 'reply-review'). */
  replyAction: string;
  /** The page action that files the report (the subject's profile). */
  reportAction: string;
}) {
  const report = useReport();
  const reply = useFetcher<{ toast?: ToastInput | null }>();
  useActionToast(reply.data?.toast);
  const name = `${review.author.firstName} ${review.author.lastName}`.trim();
  return (
    <article className="flex flex-col gap-2 px-4 py-4" aria-label={`Review by ${name}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm text-zinc-700">
          <Link to={`/${review.author.username}`} className="font-semibold text-zinc-950 hover:underline">
            {name}
          </Link>
          <span>{` · reviewed the ${review.subjectRole} · ${day(review.publishedAt)}`}</span>
        </p>
        {review.canReport ? (
          <button
            type="button"
            className="rounded-full px-2 py-1 text-sm font-semibold text-zinc-600 hover:bg-zinc-100"
            onClick={() => report.open({ kind: "review", id: review.id, action: reportAction })}
          >
            Report
          </button>
        ) : null}
      </div>
      <p className="text-lg leading-none text-amber-500">
        <span aria-hidden="true">{"★".repeat(review.stars)}</span>
        <span aria-hidden="true" className="text-zinc-300">
          {"★".repeat(5 - review.stars)}
        </span>
        <span className="sr-only">{`${review.stars} of 5 stars`}</span>
      </p>
      {review.tags.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
          {review.tags.map((tag) => (
            <li
              key={tag}
              className="rounded-full bg-zinc-100 px-2.5 py-0.5 text-xs font-medium text-zinc-700"
            >
              {REVIEW_TAG_LABELS[tag]}
            </li>
          ))}
        </ul>
      ) : null}
      {review.publicText ? (
        <p className="text-[15px] break-words whitespace-pre-wrap text-zinc-900">{review.publicText}</p>
      ) : null}
      {review.privateNote ? (
        <div className="rounded-lg bg-amber-50 px-3 py-2">
          <p className="text-xs font-semibold tracking-wide text-amber-800 uppercase">
            {REVIEW_MESSAGES.privateNotesHeading}
          </p>
          <p className="text-sm break-words whitespace-pre-wrap text-zinc-800">{review.privateNote}</p>
          <p className="mt-1 text-xs text-zinc-600">Only you can see this note.</p>
        </div>
      ) : null}
      {review.reply ? (
        <div className="ml-4 border-l-2 border-zinc-200 pl-3">
          <p className="text-xs font-semibold text-zinc-600">Reply</p>
          <p className="text-sm break-words whitespace-pre-wrap text-zinc-800">{review.reply}</p>
        </div>
      ) : review.canReply ? (
        // Decision 0618: the reply is offered once, folded, so a page of reviews is not a page of open boxes.
        <details className="group">
          <summary className="inline-flex cursor-pointer list-none rounded-full border border-zinc-300 bg-white px-3 py-1 text-sm font-semibold text-zinc-900 hover:bg-zinc-50 group-open:hidden">
            Reply
          </summary>
          <reply.Form method="post" action={replyAction} className="flex flex-col gap-2">
            <input type="hidden" name="intent" value="reply-review" />
            <input type="hidden" name="reviewId" value={review.id} />
            <label htmlFor={`reply-${review.id}`} className="text-sm font-medium text-zinc-800">
              Add a public reply (once)
            </label>
            <textarea
              id={`reply-${review.id}`}
              name="reply"
              required
              maxLength={REVIEW_TEXT_MAX}
              rows={2}
              className="rounded-lg border border-zinc-300 px-3 py-2 text-base"
            />
            <Button
              type="submit"
              variant="secondary"
              className="self-start"
              processing={reply.state !== "idle"}
            >
              Post reply
            </Button>
          </reply.Form>
        </details>
      ) : null}
      {report.dialog}
    </article>
  );
}
