import type { SignInReason } from "~/server/accounts/gates.shared";

/**
 * What the sign-in modal says and where its buttons lead (spec 1 §2, §6), as
 * data so the rules are testable without rendering. The reasons are the domain's
 * (server/accounts/gates.shared.ts: a refusal { kind: "sign-in", reason } opens this modal).
 */

export type { SignInReason };

/** The sentence under the modal's title: why signing in is needed (decision 0071). */
const reasonText: Record<SignInReason, string> = {
  // Liking a post saves it (spec 2: /saved lists the posts a user liked).
  like: "Log in or sign up to save posts.",
  comment: "Log in or sign up to comment on posts.",
  message: "Log in or sign up to message sellers.",
  post: "Log in or sign up to create a post.",
  search: "Log in or sign up to search.",
  "join campus": "Log in or sign up to join your campus.",
  // Ours: a Report (of a post, a comment, a message or a profile) asks visitors to sign up (decision 0540).
  report: "Log in or sign up to report something.",
};

export function signInReasonText(reason: SignInReason): string {
  return reasonText[reason];
}

export interface SignInTargets {
  /**
   * Where 'Continue with Google' leads instead of starting Google sign-in (the
   * auth landing's `intent=google` action, as the shell's dropdown does), or null.
   */
  google: string | null;
  /** 'Continue with Email': create an account. */
  email: string;
  /** 'Log In': an existing account. */
  logIn: string;
}

/**
 * spec 1 §2: 'The sign-in dropdown redirects to /404 when the visitor is
 * outside the US or the firewall flag is on'; the modal follows the same rule.
 */
export function signInTargets(geoBlocked: boolean): SignInTargets {
  if (geoBlocked) return { google: "/404", email: "/404", logIn: "/404" };
  return { google: null, email: "/register", logIn: "/login" };
}
