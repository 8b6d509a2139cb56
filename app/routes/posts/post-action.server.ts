import type { ParticipationAnswer } from "~/app/lib/errors.server";
import type { ParticipationRefusal } from "~/server/accounts/gates.shared";

/**
 * Where a participation refusal of a post page's action goes (the one adapter,
 * app/lib/errors.server.ts, decision 0140): signed out → /user_registration (the page
 * behind the sign-in modal, for a plain form; with JavaScript the buttons open the modal
 * before sending); e-mail not verified → /verify; any other → its message as a toast.
 */
export function postPageParticipation(refusal: ParticipationRefusal): ParticipationAnswer {
  if (refusal.kind === "sign-in") return { redirect: "/user_registration" };
  if (refusal.kind === "verify-email") return { redirect: "/verify" };
  return null;
}
