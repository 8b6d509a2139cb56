import { INDEFINITELY, MODERATION_MESSAGES, STANDING_LINK_LABEL } from "./rules.shared";
import { STANDING_PATH } from "./standing.shared";

/**
 * Decision 0547: how a suspension is told — its end, the refusal's words and the link to the
 * standing page. Apart from server/accounts/gates.shared.ts, whose gate the shell's first load
 * runs: the browser fetches these words only when it shows a refusal.
 */

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/**
 * A suspension's end as every refusal and page shows it, 'December 1, 2026 at 3:00 PM UTC'.
 * Written out here rather than by Intl, whose spacing before 'PM' differs between ICU versions
 * (the server's and the browser's would not match while hydrating); in UTC, because the account
 * stores no time zone and a time without one would be wrong for someone.
 */
export function formatSuspensionEnd(until: Date): string {
  const date = new Date(until);
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, "0");
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const half = hours < 12 ? "AM" : "PM";
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()} at ${hour12}:${minutes} ${half} UTC`;
}

/** The words of a suspension's refusal ('until a moderator lifts it' for INDEFINITELY). */
export function suspendedMessage(until: Date): string {
  return new Date(until).getTime() >= INDEFINITELY.getTime()
    ? MODERATION_MESSAGES.suspendedIndefinitely
    : MODERATION_MESSAGES.suspendedUntil(formatSuspensionEnd(until));
}

/** Where every suspension refusal links, wherever it is shown (a toast, a form's message). */
export const SUSPENDED_LINK = { to: STANDING_PATH, label: STANDING_LINK_LABEL } as const;
