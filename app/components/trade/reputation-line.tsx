import {
  memberSinceText,
  type ReputationSummary,
  ratingText,
  replySpeedText,
  tradesText,
} from "~/server/trade/review-rules.shared";

/**
 * A member's reputation line (decision 0616): '★ 4.8 · 23 reviews' from three counted reviews up,
 * 'New seller' below, the trades completed and, in full, the member's start and reply speed.
 * Plain server-rendered text, read from the summary row; nothing is filled in for a newcomer.
 */
export function ReputationLine({
  summary,
  full = false,
  className = "",
}: {
  summary: ReputationSummary;
  /** The profile's line: member since and reply speed too. */
  full?: boolean;
  className?: string;
}) {
  const parts = [ratingText(summary), tradesText(summary.tradesCompleted)];
  if (full) {
    parts.push(memberSinceText(summary.memberSince));
    const replies = replySpeedText(summary.replySeconds);
    if (replies) parts.push(replies);
  }
  return (
    <p className={`text-sm text-zinc-600 ${className}`} data-testid="reputation-line">
      {parts.map((part, index) => (
        <span key={part}>
          {index > 0 ? <span aria-hidden="true"> · </span> : null}
          <span className={index === 0 ? "font-semibold text-zinc-800" : undefined}>{part}</span>
        </span>
      ))}
    </p>
  );
}
