import { MODERATION_MESSAGES } from "~/server/moderation/rules.shared";

/**
 * Decision 0546: what the author of a hidden post or comment sees on it (nobody else is given it):
 * 'Hidden while moderators review it', as a status region in the amber of the app's other notices.
 */
export function HiddenBanner({ className = "" }: { className?: string }) {
  return (
    <p
      role="status"
      className={`rounded-xl border border-amber-200 bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-950 ${className}`}
    >
      {MODERATION_MESSAGES.hiddenBanner}
    </p>
  );
}
