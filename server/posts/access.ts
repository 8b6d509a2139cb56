import type { ParticipationAction } from "../accounts/gates.shared";
import { assertCanParticipate, ParticipationRefused } from "../accounts/participation";
import type { Viewer } from "../accounts/viewer";
import { isPrivateToViewer } from "../campuses/privacy";
import type { AppContext } from "../context";
import { PostError } from "./errors";
import { POST_MESSAGES } from "./schemas";

/**
 * The viewer who may take `action` at `now` (server/accounts/gates.shared.ts: signed in, not
 * suspended, e-mail verified, school verified, profile set up, as the action needs), or a
 * ParticipationRefused the route turns into the sign-in modal, /verify, the school
 * prompt, the 'Your profile is not complete' modal or the suspension's message (decision 0547).
 * A banned account counts as signed out (spec 1 §6).
 */
export function requireParticipant(viewer: Viewer | null, action: ParticipationAction, now: Date): Viewer {
  if (viewer?.banned) throw new ParticipationRefused({ kind: "sign-in", reason: action });
  assertCanParticipate(viewer, action, now);
  return viewer;
}

export interface CampusForReading {
  id: string;
  privacy: "public" | "private";
  generic: boolean;
  feedPageSize: number;
}

/**
 * spec 2 §6: a private community's content only for signed-in users; a visitor
 * gets the 'This community is private' gate (PostError 'private-campus'). Also
 * gives the campus's feed page size. Unknown campus ids are a caller bug.
 */
export function requireReadableCampus(
  ctx: AppContext,
  viewer: Viewer | null,
  campusId: string,
): CampusForReading {
  const campus = ctx.campuses.get(campusId);
  if (!campus) throw new Error(`unknown campus ${JSON.stringify(campusId)}`);
  assertCampusReadable(viewer, campus);
  return campus;
}

/** Decision 0071: the one privacy rule (server/campuses/privacy.ts), as a refusal. */
export function assertCampusReadable(
  viewer: Viewer | null,
  campus: { privacy: "public" | "private"; generic: boolean },
): void {
  if (isPrivateToViewer(campus, viewer))
    throw new PostError("private-campus", POST_MESSAGES.privateCommunity);
}
