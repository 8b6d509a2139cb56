import { DomainError } from "../errors";
import type { Viewer } from "./viewer";

/**
 * Who may take part, and what stands in the way (spec 1 §6 'Roles and permissions',
 * spec 2 §5, §6). The domain functions of posts, comments, saves and chats call
 * `assertCanParticipate` before writing; pages call `participationRefusal` to open
 * the right prompt before the user starts typing.
 */
export type ParticipationAction = "post" | "comment" | "message" | "like" | "report";

/** spec 1 §6: the reasons the sign-in modal is opened with (and 'report', ours: a visitor's Report). */
export type SignInReason = "like" | "comment" | "message" | "post" | "search" | "join campus" | "report";

export type ParticipationRefusal =
  /** Signed out: the sign-in modal, with the action as its reason. */
  | { kind: "sign-in"; reason: SignInReason }
  /** spec 1 §6: a signed-in user whose e-mail is not verified is forced to /verify. */
  | { kind: "verify-email" }
  /** spec 1 §6: school-unverified users are prompted before posting, commenting or messaging. */
  | { kind: "verify-school" }
  /** spec 2 §5: posting needs a profile picture and a bio (the 'Your profile is not complete' modal). */
  | { kind: "profile-incomplete" };

type GateViewer = Pick<Viewer, "verified" | "schoolVerified" | "profileSetUp">;

/** What each action needs beyond being signed in with a verified e-mail. */
const needs: Record<ParticipationAction, { school: boolean; profile: boolean }> = {
  post: { school: true, profile: true },
  comment: { school: true, profile: false },
  message: { school: true, profile: false },
  // spec 1 §1: saving asks visitors to sign in; the school prompt covers posting, commenting, messaging only.
  like: { school: false, profile: false },
  // spec 1 §2 'Report': a signed-in user with a verified e-mail (issue 9 §4), school or not.
  report: { school: false, profile: false },
};

/** The first thing that stops `viewer` from taking `action`, or null when nothing does. */
export function participationRefusal(
  viewer: GateViewer | null,
  action: ParticipationAction,
): ParticipationRefusal | null {
  if (!viewer) return { kind: "sign-in", reason: action };
  if (!viewer.verified) return { kind: "verify-email" };
  const need = needs[action];
  if (need.school && !viewer.schoolVerified) return { kind: "verify-school" };
  if (need.profile && !viewer.profileSetUp) return { kind: "profile-incomplete" };
  return null;
}

/** What a refusal tells the user when it is shown as a message rather than a prompt. */
export const PARTICIPATION_MESSAGES: Record<ParticipationRefusal["kind"], string> = {
  "sign-in": "Log in or sign up to continue.",
  "verify-email": "Verify your email first.",
  "verify-school": "Verify your school email to post, comment and message.",
  // spec 2 §2 'Modals' profile incomplete: its body text.
  "profile-incomplete": "Please pick a profile picture and add a bio before posting",
};

/** Signed out is 401 (sign in, then retry); the other gates are 403 (decision 0140). */
const PARTICIPATION_STATUS: Record<ParticipationRefusal["kind"], number> = {
  "sign-in": 401,
  "verify-email": 403,
  "verify-school": 403,
  "profile-incomplete": 403,
};

export class ParticipationRefused extends DomainError<ParticipationRefusal["kind"]> {
  constructor(readonly refusal: ParticipationRefusal) {
    super(refusal.kind, PARTICIPATION_MESSAGES[refusal.kind], { status: PARTICIPATION_STATUS[refusal.kind] });
    this.name = "ParticipationRefused";
  }
}

export function isParticipationRefused(error: unknown): error is ParticipationRefused {
  return error instanceof ParticipationRefused;
}

/** Throws ParticipationRefused unless `viewer` may take `action`; narrows a nullable viewer. */
export function assertCanParticipate<V extends GateViewer>(
  viewer: V | null,
  action: ParticipationAction,
): asserts viewer is V {
  const refusal = participationRefusal(viewer, action);
  if (refusal) throw new ParticipationRefused(refusal);
}
