import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { redirectWithToast } from "~/app/lib/toast.server";
import { ACCOUNT_MESSAGES, isAccountError } from "~/server/accounts/errors";
import type { MagicLinkSent } from "~/server/accounts/magic-link";
import type { AppContext } from "~/server/context";
import { type AuthActionData, accountFailure } from "./action.server";

// What the pages that send e-mail links share (/login, /register, /login/sent; decision 0060).

/** spec 1 §2 /login/sent?email=…, with first and last when the link signs up. */
export function linkSentPath(sent: MagicLinkSent): string {
  const params = new URLSearchParams({ email: sent.email });
  if (sent.first && sent.last) {
    params.set("first", sent.first);
    params.set("last", sent.last);
  }
  return `/login/sent?${params}`;
}

/** After sending: /login/sent with spec 1 §8's 'Email sent.' (okay). */
export function redirectToLinkSent(sent: MagicLinkSent): Promise<Response> {
  return redirectWithToast(linkSentPath(sent), { message: "Email sent.", type: "okay" });
}

/**
 * 'Claim this account': /login/sent?claim={username}, which names the profile, not the
 * address the link went to (issue 9 §3, decision 0126).
 */
export function claimLinkSentPath(username: string): string {
  return `/login/sent?${new URLSearchParams({ claim: username })}`;
}

export function redirectToClaimLinkSent(username: string): Promise<Response> {
  return redirectWithToast(claimLinkSentPath(username), { message: "Email sent.", type: "okay" });
}

/**
 * spec 1 §8 'Magic link and reset': a refusal shows its message (under its field, else as
 * a danger toast); a failure to send is 'An unknown error has occurred'.
 */
export function magicLinkFailure(
  app: AppContext,
  error: unknown,
  reply: (options?: { fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>,
  inlineFields: readonly string[] = [],
) {
  if (isAccountError(error)) return accountFailure(app, error, reply, inlineFields);
  app.log.error({ err: error }, "sign-in link could not be sent");
  return data<AuthActionData>(
    { result: reply(), toast: { message: ACCOUNT_MESSAGES.magicLinkSendFailed, type: "danger" } },
    { status: 500 },
  );
}
