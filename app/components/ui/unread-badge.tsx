/**
 * Unread badges (spec 1 §2 'Shell and layout': unread notifications plus
 * unread chats on headers, the bottom bar and the settings back button).
 */

/** What a badge reads: nothing at zero, the number up to 99, then '99+' so it never outgrows its circle. */
export function formatUnreadCount(count: number): string | null {
  if (!Number.isFinite(count) || count < 1) return null;
  const whole = Math.floor(count);
  return whole > 99 ? "99+" : String(whole);
}

/** What the header's total counts (spec 1 §2), said with it so it is not taken for the bell's (decision 0455). */
export const TOTAL_UNREAD_WHAT = "unread notifications and chats";

/** Screen-reader text for a badge, e.g. '3 unread', or '3 unread notifications and chats'. */
export function unreadLabel(count: number, what = "unread"): string | null {
  const text = formatUnreadCount(count);
  return text === null ? null : `${text} ${what}`;
}

/**
 * A red count bubble. It is read out with its parent link ('Messages, 3 unread'),
 * so the visual number is hidden and a visually hidden phrase carries it.
 */
export function UnreadBadge({ count, className = "" }: { count: number; className?: string }) {
  const text = formatUnreadCount(count);
  if (text === null) return null;
  return (
    <span
      className={`inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-600 px-1.5 text-[11px] leading-none font-bold text-white ring-2 ring-white ${className}`}
    >
      <span aria-hidden="true">{text}</span>
      <span className="sr-only">, {unreadLabel(count)}</span>
    </span>
  );
}
