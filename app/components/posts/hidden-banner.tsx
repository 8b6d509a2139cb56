/**
 * Decision 0546: what the author of a hidden post or comment sees on it (nobody else is given it),
 * 'Hidden while moderators review it' as the post carries it (PostSummary.hiddenBanner): a status
 * region in the amber of the app's other notices.
 */
export function HiddenBanner({ text, className = "" }: { text: string; className?: string }) {
  return (
    <p
      role="status"
      className={`rounded-xl bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-800 ${className}`}
    >
      {text}
    </p>
  );
}
