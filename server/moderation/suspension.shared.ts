import { formatUtcDateTime } from "../dates.shared";
import { INDEFINITELY, MODERATION_MESSAGES, STANDING_LINK_LABEL } from "./rules.shared";
import { STANDING_PATH } from "./standing.shared";

/**
 * Decision 0547: how a suspension is told — the refusal's words with its end and the link to the
 * standing page. Apart from server/accounts/gates.shared.ts, whose gate the shell's first load
 * runs: the browser fetches these words only when it shows a refusal.
 */

/** The words of a suspension's refusal ('until a moderator lifts it' for INDEFINITELY). */
export function suspendedMessage(until: Date): string {
  return new Date(until).getTime() >= INDEFINITELY.getTime()
    ? MODERATION_MESSAGES.suspendedIndefinitely
    : MODERATION_MESSAGES.suspendedUntil(formatUtcDateTime(until));
}

/** Where every suspension refusal links, wherever it is shown (a toast, a form's message). */
export const SUSPENDED_LINK = { to: STANDING_PATH, label: STANDING_LINK_LABEL } as const;
