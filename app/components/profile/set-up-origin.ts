// Where the profile set-up wizard was opened from (spec 1 §2 'Profile set-up wizard',
// query goBack) decides its last button's label and where closing it leads.

import type { ParticipationAction } from "~/server/accounts/gates.shared";

/** Origins in the posting flow: the wizard was a detour on the way to a post or a comment. */
const POSTING_ORIGINS = new Set(["create", "create_home", "create_detail", "create_profile", "comment"]);

/**
 * What the user goes on to do after the wizard: a post from the create origins, a comment from
 * 'comment', nothing in particular otherwise. The last step asks the posting gate whether that
 * will work (decision 0448).
 */
export function originAction(origin: string | null): ParticipationAction | null {
  if (origin === "comment") return "comment";
  return origin && POSTING_ORIGINS.has(origin) ? "post" : null;
}

export type WizardStep = 1 | 2 | 3;

/** spec 1 §2: 'Continue Posting', 'Back to Home', 'Back to Profile', otherwise 'Continue'. */
export function finishLabel(origin: string | null): string {
  if (origin && POSTING_ORIGINS.has(origin)) return "Continue Posting";
  if (origin === "home") return "Back to Home";
  if (origin === "profile") return "Back to Profile";
  return "Continue";
}

/**
 * spec 1 §2: 'create origins go to /create/post?goBack=home, detail or profile;
 * comment goes to /create/comment/{postId} or back; otherwise to the previous
 * page'. Null means 'the previous page'.
 */
export function closeTarget(origin: string | null, postId: string | null): string | null {
  switch (origin) {
    case "create":
    case "create_home":
      return "/create/post?goBack=home";
    case "create_detail":
      return "/create/post?goBack=detail";
    case "create_profile":
      return "/create/post?goBack=profile";
    case "comment":
      return postId ? `/create/comment/${encodeURIComponent(postId)}` : null;
    case "home":
      return "/home";
    case "profile":
      return "/profile";
    default:
      return null;
  }
}

export function parseStep(value: string | null | undefined): WizardStep {
  return value === "2" ? 2 : value === "3" ? 3 : 1;
}

/** The wizard page at a step, keeping its origin: the step links work without JavaScript. */
export function setUpHref(step: WizardStep, origin: string | null, postId: string | null): string {
  const query = new URLSearchParams();
  if (origin) query.set("goBack", origin);
  if (postId) query.set("postId", postId);
  if (step !== 1) query.set("step", String(step));
  const search = query.toString();
  return `/profile/set-up${search ? `?${search}` : ""}`;
}
