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
  | { kind: "profile-incomplete" }
  /** Decision 0547: a moderator suspended the account until `until` (compared with the clock). */
  | { kind: "suspended"; until: Date };

/**
 * What the gate reads of the viewer. `suspendedUntil` is optional only so a caller that read the
 * row itself (reportUser) names the columns it has; every viewer (server/accounts/viewer.ts) has it.
 */
export type GateViewer = Pick<Viewer, "verified" | "schoolVerified" | "profileSetUp"> & {
  suspendedUntil?: Date | null;
};

/** What each action needs beyond being signed in with a verified e-mail. */
const needs: Record<ParticipationAction, { school: boolean; profile: boolean }> = {
  post: { school: true, profile: true },
  comment: { school: true, profile: false },
  message: { school: true, profile: false },
  // spec 1 §1: saving asks visitors to sign in; the school prompt covers posting, commenting, messaging only.
  like: { school: false, profile: false },
  // spec 1 §2 'Report': a signed-in user with a verified e-mail (decision 0127), school or not.
  report: { school: false, profile: false },
};

/** Whether `suspendedUntil` is still ahead of `now` (decision 0547: no job ends a suspension). */
export function isSuspendedAt(suspendedUntil: Date | null | undefined, now: Date): boolean {
  return suspendedUntil != null && new Date(suspendedUntil).getTime() > now.getTime();
}

/**
 * Decision 0547: a suspension stops every action but saving (reading, signing in and appealing are
 * never gated), until the clock passes its end.
 */
export function suspensionRefusal(
  viewer: Pick<GateViewer, "suspendedUntil"> | null,
  action: ParticipationAction | "boost",
  now: Date,
): ParticipationRefusal | null {
  if (!viewer?.suspendedUntil || action === "like" || !isSuspendedAt(viewer.suspendedUntil, now)) return null;
  return { kind: "suspended", until: new Date(viewer.suspendedUntil) };
}

/** The parts of a profile posting needs (spec 2 §5). */
export type ProfilePart = "photo" | "bio";

/**
 * What a profile still lacks before `action` may be taken (spec 2 §5: posting needs a profile
 * picture and a bio; nothing else needs either): [] when nothing. The one rule the posting gate
 * below and the set-up wizard's last step share (decision 0448: the wizard called a profile finished
 * that could not post). profile_set_up records that both existed once and never turns back
 * (spec 1 §4, decision 0051), so once it is set nothing is missing; before, the parts the profile
 * has not got are, and a caller that knows only the flag (a viewer) gets both.
 */
export function missingProfileParts(
  profile: { profileSetUp: boolean; img?: string | null; bio?: string | null },
  action: ParticipationAction,
): ProfilePart[] {
  if (!needs[action].profile || profile.profileSetUp) return [];
  const missing: ProfilePart[] = [];
  if (!profile.img) missing.push("photo");
  if (!profile.bio?.trim()) missing.push("bio");
  // Both present but the flag not yet read back (a photo just uploaded): the UPDATE that stored the
  // second part set the flag too (server/profiles/profiles.ts), so nothing is missing.
  return missing;
}

/** The refusals a page prompts for before anything is sent (a suspension is refused by the server only). */
export type PromptRefusal = Exclude<ParticipationRefusal, { kind: "suspended" }>;

/**
 * The first prompt that stops `viewer` from taking `action`, or null when nothing does. The browser
 * asks it before the student starts typing; the server asks `assertCanParticipate`
 * (server/accounts/participation.ts), which checks a suspension first (decision 0547: the suspension's
 * words and date stay off the shell's first load, which runs this).
 */
export function participationRefusal(
  viewer: GateViewer | null,
  action: ParticipationAction,
): PromptRefusal | null {
  if (!viewer) return { kind: "sign-in", reason: action };
  if (!viewer.verified) return { kind: "verify-email" };
  const need = needs[action];
  if (need.school && !viewer.schoolVerified) return { kind: "verify-school" };
  // The flag alone: the server reads what the database recorded, not parts a caller passes.
  if (missingProfileParts({ profileSetUp: viewer.profileSetUp }, action).length > 0) {
    return { kind: "profile-incomplete" };
  }
  return null;
}

/** What a refusal tells the user when it is shown as a message rather than a prompt. */
export const PARTICIPATION_MESSAGES: Record<Exclude<ParticipationRefusal["kind"], "suspended">, string> = {
  "sign-in": "Log in or sign up to continue.",
  "verify-email": "Verify your email first.",
  "verify-school": "Verify your school email to post, comment and message.",
  // spec 2 §2 'Modals' profile incomplete: its body text.
  "profile-incomplete": "Please pick a profile picture and add a bio before posting",
};
